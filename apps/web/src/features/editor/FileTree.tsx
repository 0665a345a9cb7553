import { useState } from "react";
import { fileColor, type TreeNode } from "./tree";

interface FileTreeProps {
  root: TreeNode;
  selectedFile: string;
  onSelectFile: (name: string) => void;
}

/** The collapsible tree: folders toggle (src starts open), the selected file is highlighted. */
export function FileTree({ root, selectedFile, onSelectFile }: FileTreeProps) {
  return (
    <ul className="file-tree">
      <TreeItem node={root} depth={0} selectedFile={selectedFile} onSelectFile={onSelectFile} />
    </ul>
  );
}

interface TreeItemProps {
  node: TreeNode;
  depth: number;
  selectedFile: string;
  onSelectFile: (name: string) => void;
}

function TreeItem({ node, depth, selectedFile, onSelectFile }: TreeItemProps) {
  const [isOpen, setIsOpen] = useState(node.name === "src");
  const indent = { paddingLeft: `${8 + depth * 14}px` };

  if (node.type === "file") {
    const isSelected = node.name === selectedFile;
    return (
      <li>
        <button
          type="button"
          className={`tree-row${isSelected ? " is-selected" : ""}`}
          style={indent}
          aria-current={isSelected ? "true" : undefined}
          onClick={() => onSelectFile(node.name)}
        >
          <FileIcon color={fileColor(node.name)} />
          <span className="tree-name">{node.name}</span>
        </button>
      </li>
    );
  }

  const children = node.children ?? [];
  return (
    <li>
      <button
        type="button"
        className="tree-row"
        style={indent}
        aria-expanded={isOpen}
        onClick={() => setIsOpen((open) => !open)}
      >
        <span className={`tree-chevron${isOpen ? " is-open" : ""}`} aria-hidden="true">
          ›
        </span>
        <FolderIcon />
        <span className="tree-name">{node.name}</span>
        <span className="tree-count">
          {children.length}
          <span className="visually-hidden">{children.length === 1 ? " item" : " items"}</span>
        </span>
      </button>
      {isOpen && (
        <ul>
          {children.length === 0 ? (
            <li className="tree-empty" style={{ paddingLeft: `${22 + (depth + 1) * 14}px` }}>
              Empty
            </li>
          ) : (
            children.map((child) => (
              <TreeItem
                key={child.name}
                node={child}
                depth={depth + 1}
                selectedFile={selectedFile}
                onSelectFile={onSelectFile}
              />
            ))
          )}
        </ul>
      )}
    </li>
  );
}

function FileIcon({ color }: { color: string }) {
  return (
    <svg className="tree-icon" width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
      <path d="M4 1.5h5.5L13 5v9.5H4z" fill="none" stroke={color} strokeWidth="1.4" strokeLinejoin="round" />
      <path d="M9.5 1.5V5H13" fill="none" stroke={color} strokeWidth="1.4" strokeLinejoin="round" />
    </svg>
  );
}

function FolderIcon() {
  return (
    <svg className="tree-icon" width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
      <path
        d="M1.5 3.5h5l1.5 1.5h6.5v8.5h-13z"
        fill="#a78bfa"
        fillOpacity="0.25"
        stroke="#a78bfa"
        strokeWidth="1.3"
        strokeLinejoin="round"
      />
    </svg>
  );
}
