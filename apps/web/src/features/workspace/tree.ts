import type { WorkspaceEntry } from "@ensemble/collab";

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

/** File-type colours by extension: the spec's list, plus Python and module JavaScript. */
export const EXTENSION_COLORS: Readonly<Record<string, string>> = {
  js: "#f7df1e",
  mjs: "#f7df1e",
  jsx: "#61dafb",
  ts: "#3b82f6",
  tsx: "#38bdf8",
  css: "#60a5fa",
  html: "#f97316",
  json: "#cbcb41",
  md: "#7dd3fc",
  py: "#4b8bbe",
};

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

/** Monaco's language id for a file, from its extension. */
export function editorLanguage(path: string): string {
  const languages: Record<string, string> = {
    js: "javascript",
    mjs: "javascript",
    jsx: "javascript",
    ts: "typescript",
    tsx: "typescript",
    css: "css",
    html: "html",
    // Monaco has no JSON tokenizer without the JSON language service; JavaScript's colours it well.
    json: "javascript",
    md: "markdown",
    py: "python",
  };
  return languages[extensionOf(path)] ?? "plaintext";
}
