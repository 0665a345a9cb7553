/** A node of the file sidebar's tree (spec: name, type, children). */
export interface TreeNode {
  name: string;
  type: "folder" | "file";
  children?: TreeNode[];
}

/** The session's tree: `src` holding an (empty) `components` folder and the language's file. */
export function sessionTree(file: string): TreeNode {
  return {
    name: "src",
    type: "folder",
    children: [
      { name: "components", type: "folder", children: [] },
      { name: file, type: "file" },
    ],
  };
}

/** File-type colours by extension, the spec's list plus Python for main.py. */
export const EXTENSION_COLORS: Readonly<Record<string, string>> = {
  js: "#f7df1e",
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

/** The colour of a file's icon, from its extension. */
export function fileColor(name: string): string {
  const dot = name.lastIndexOf(".");
  const extension = dot === -1 ? "" : name.slice(dot + 1).toLowerCase();
  return EXTENSION_COLORS[extension] ?? DEFAULT_FILE_COLOR;
}
