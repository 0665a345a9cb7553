import type { WorkspaceEntry } from "@ensemble/collab";
import { LANGUAGE_RECORDS } from "@ensemble/protocol";

/** A node of the file sidebar's tree (spec: name, type, children), with its workspace path. */
export interface TreeNode {
  name: string;
  path: string;
  type: "folder" | "file";
  /** The file's id (files only): tabs and editors follow it across renames. */
  id?: string;
  children: TreeNode[];
}

/** The workspace as a tree: folders first, then files, each sorted by name. */
export function buildTree(files: readonly WorkspaceEntry[], folders: readonly string[]): TreeNode[] {
  const root: TreeNode = { name: "", path: "", type: "folder", children: [] };
  const byPath = new Map<string, TreeNode>([["", root]]);
  const folderAt = (path: string): TreeNode => {
    const known = byPath.get(path);
    if (known) return known;
    const slash = path.lastIndexOf("/");
    const parent = folderAt(slash === -1 ? "" : path.slice(0, slash));
    const node: TreeNode = { name: path.slice(slash + 1), path, type: "folder", children: [] };
    parent.children.push(node);
    byPath.set(path, node);
    return node;
  };
  for (const folder of folders) folderAt(folder);
  for (const file of files) {
    const slash = file.path.lastIndexOf("/");
    const parent = folderAt(slash === -1 ? "" : file.path.slice(0, slash));
    parent.children.push({
      name: file.path.slice(slash + 1),
      path: file.path,
      type: "file",
      id: file.id,
      children: [],
    });
  }
  const sort = (nodes: TreeNode[]) => {
    nodes.sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === "folder" ? -1 : 1));
    for (const node of nodes) sort(node.children);
  };
  sort(root.children);
  return root.children;
}

/** The nodes a keyboard user moves through: every node whose parents are all expanded. */
export function visibleNodes(nodes: readonly TreeNode[], expanded: ReadonlySet<string>): TreeNode[] {
  const out: TreeNode[] = [];
  const walk = (list: readonly TreeNode[]) => {
    for (const node of list) {
      out.push(node);
      if (node.type === "folder" && expanded.has(node.path)) walk(node.children);
    }
  };
  walk(nodes);
  return out;
}

/** The folder that holds `path` ("" at the top). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

/** `name` inside `folder`. */
export function join(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}

/** Files that are no runnable language: the spec's list of colours and Monaco ids. */
const OTHER_FILE_TYPES: Readonly<Record<string, { color: string; monaco: string }>> = {
  jsx: { color: "#61dafb", monaco: "javascript" },
  ts: { color: "#3b82f6", monaco: "typescript" },
  tsx: { color: "#38bdf8", monaco: "typescript" },
  css: { color: "#60a5fa", monaco: "css" },
  html: { color: "#f97316", monaco: "html" },
  // Monaco has no JSON tokenizer without the JSON language service; JavaScript's colours it well.
  json: { color: "#cbcb41", monaco: "javascript" },
  md: { color: "#7dd3fc", monaco: "markdown" },
};

// A language's record wins over the list above: a record for TypeScript will claim `ts`.
const FILE_TYPES: Readonly<Record<string, { color: string; monaco: string }>> = {
  ...OTHER_FILE_TYPES,
  ...Object.fromEntries(
    LANGUAGE_RECORDS.flatMap((r) =>
      r.extensions.map((ext) => [ext, { color: r.iconColor, monaco: r.monaco }]),
    ),
  ),
};

/** File-type colours by extension: each language's record, plus the spec's other file types. */
export const EXTENSION_COLORS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(FILE_TYPES).map(([ext, type]) => [ext, type.color]),
);

const DEFAULT_FILE_COLOR = "#a1a1aa";

/** The extension of a file name, lower case ("" when it has none). */
export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? "" : base.slice(dot + 1).toLowerCase();
}

/** The colour of a file's icon, from its extension. */
export function fileColor(name: string): string {
  return EXTENSION_COLORS[extensionOf(name)] ?? DEFAULT_FILE_COLOR;
}

/** Monaco's language id for a file, from its extension (a language's record, else the other file types). */
export function editorLanguage(path: string): string {
  return FILE_TYPES[extensionOf(path)]?.monaco ?? "plaintext";
}
