import { type KeyboardEvent, type MouseEvent, useEffect, useRef } from "react";
import { KEEPS_ESCAPE } from "../../ui/Dialog";
import { fileColor, parentOf, type TreeNode, visibleNodes } from "./tree";

/** Someone else who has a file open: drawn as a coloured initial on its row. */
export interface FileVisitor {
  name: string;
  color: string;
}

/** Where the inline name box is, and what it makes. */
export type NameEdit =
  | { mode: "file" | "folder"; folder: string }
  | { mode: "rename"; path: string; type: TreeNode["type"] };

interface FileTreeProps {
  nodes: TreeNode[];
  expanded: ReadonlySet<string>;
  focusedPath: string | null;
  activePath: string | null;
  visitors: ReadonlyMap<string, FileVisitor[]>;
  nameEdit: NameEdit | null;
  onFocusPath: (path: string) => void;
  onToggle: (path: string, isOpen: boolean) => void;
  onOpen: (node: TreeNode) => void;
  onRename: (node: TreeNode) => void;
  onDelete: (node: TreeNode) => void;
  onContextMenu: (node: TreeNode, event: MouseEvent) => void;
  onNameCommit: (name: string) => void;
  onNameCancel: () => void;
}

/**
 * The workspace as a WAI-ARIA tree: one tab stop; arrows move and expand, Home/End jump,
 * Enter opens (or toggles a folder), F2 renames, Delete deletes. New and renamed names are
 * typed into a labelled text box in place.
 */
export function FileTree(props: FileTreeProps) {
  const { nodes, expanded, focusedPath } = props;
  const listRef = useRef<HTMLUListElement>(null);
  const visible = visibleNodes(nodes, expanded);
  const tabStop = visible.some((n) => n.path === focusedPath) ? focusedPath : (visible[0]?.path ?? null);

  const focusRow = (path: string) => {
    props.onFocusPath(path);
    listRef.current?.querySelector<HTMLElement>(`[data-path="${CSS.escape(path)}"]`)?.focus();
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.target instanceof HTMLInputElement) return;
    const index = visible.findIndex((n) => n.path === tabStop);
    const node = visible[index];
    if (!node) return;
    const move = (to: TreeNode | undefined) => {
      if (!to) return;
      event.preventDefault();
      focusRow(to.path);
    };
    const isOpen = node.type === "folder" && expanded.has(node.path);
    switch (event.key) {
      case "ArrowDown":
        return move(visible[index + 1]);
      case "ArrowUp":
        return move(visible[index - 1]);
      case "Home":
        return move(visible[0]);
      case "End":
        return move(visible.at(-1));
      case "ArrowRight":
        event.preventDefault();
        if (node.type === "folder" && !isOpen) props.onToggle(node.path, true);
        else if (isOpen) move(node.children[0]);
        return;
      case "ArrowLeft": {
        event.preventDefault();
        if (isOpen) return props.onToggle(node.path, false);
        const parent = parentOf(node.path);
        return move(visible.find((n) => n.path === parent));
      }
      case "Enter":
        event.preventDefault();
        return node.type === "folder" ? props.onToggle(node.path, !isOpen) : props.onOpen(node);
      case "F2":
        event.preventDefault();
        return props.onRename(node);
      case "Delete":
        event.preventDefault();
        return props.onDelete(node);
    }
  };

  return (
    // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: WAI-ARIA's tree pattern is built on lists
    <ul ref={listRef} className="file-tree" role="tree" aria-label="Files" onKeyDown={handleKeyDown}>
      {props.nameEdit?.mode !== "rename" && props.nameEdit?.folder === "" && (
        <NameBox
          edit={props.nameEdit}
          depth={0}
          onCommit={props.onNameCommit}
          onCancel={props.onNameCancel}
        />
      )}
      {nodes.map((node) => (
        <TreeRow key={node.path} node={node} depth={0} tabStop={tabStop} {...props} onFocusRow={focusRow} />
      ))}
    </ul>
  );
}

interface TreeRowProps extends FileTreeProps {
  node: TreeNode;
  depth: number;
  tabStop: string | null;
  onFocusRow: (path: string) => void;
}

function TreeRow(props: TreeRowProps) {
  const { node, depth, expanded, activePath, nameEdit } = props;
  const isOpen = node.type === "folder" && expanded.has(node.path);
  const isSelected = node.type === "file" && node.path === activePath;
  const isRenaming = nameEdit?.mode === "rename" && nameEdit.path === node.path;
  const indent = { paddingLeft: `${8 + depth * 14}px` };
  const visitors = props.visitors.get(node.path) ?? [];

  if (isRenaming) {
    return (
      <NameBox
        edit={nameEdit}
        depth={depth}
        initial={node.name}
        onCommit={props.onNameCommit}
        onCancel={props.onNameCancel}
      />
    );
  }

  const handleClick = () => {
    props.onFocusRow(node.path);
    if (node.type === "folder") props.onToggle(node.path, !isOpen);
    else props.onOpen(node);
  };

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the tree's keyboard handler (on the list) covers every row
    <li
      role="treeitem"
      aria-level={depth + 1}
      aria-expanded={node.type === "folder" ? isOpen : undefined}
      aria-selected={isSelected}
      tabIndex={props.tabStop === node.path ? 0 : -1}
      data-path={node.path}
      className="tree-item"
      onFocus={(event) => {
        if (event.target === event.currentTarget) props.onFocusPath(node.path);
      }}
      onClick={(event) => {
        event.stopPropagation();
        handleClick();
      }}
      onContextMenu={(event) => {
        event.preventDefault();
        event.stopPropagation();
        props.onFocusRow(node.path);
        props.onContextMenu(node, event);
      }}
    >
      <div className={`tree-row${isSelected ? " is-selected" : ""}`} style={indent}>
        {node.type === "folder" ? (
          <>
            <span className={`tree-chevron${isOpen ? " is-open" : ""}`} aria-hidden="true">
              ›
            </span>
            <FolderIcon />
          </>
        ) : (
          <FileIcon color={fileColor(node.name)} />
        )}
        <span className="tree-name">{node.name}</span>
        {visitors.length > 0 && (
          <span className="tree-visitors" data-testid="file-visitors">
            {visitors.map((v) => (
              <span
                key={v.name}
                className="tree-visitor"
                style={{ backgroundColor: v.color }}
                title={`${v.name} is here`}
              >
                {v.name.trim().charAt(0).toUpperCase() || "?"}
              </span>
            ))}
            <span className="visually-hidden">, open by {visitors.map((v) => v.name).join(", ")}</span>
          </span>
        )}
        {node.type === "folder" && (
          <span className="tree-count">
            {node.children.length}
            <span className="visually-hidden">{node.children.length === 1 ? " item" : " items"}</span>
          </span>
        )}
      </div>
      {isOpen && (
        // biome-ignore lint/a11y/useSemanticElements: a tree group has no native HTML element
        <ul role="group">
          {nameEdit && nameEdit.mode !== "rename" && nameEdit.folder === node.path && (
            <NameBox
              edit={nameEdit}
              depth={depth + 1}
              onCommit={props.onNameCommit}
              onCancel={props.onNameCancel}
            />
          )}
          {node.children.length === 0 &&
          !(nameEdit && nameEdit.mode !== "rename" && nameEdit.folder === node.path) ? (
            <li role="none" className="tree-empty" style={{ paddingLeft: `${22 + (depth + 1) * 14}px` }}>
              Empty
            </li>
          ) : (
            node.children.map((child) => (
              <TreeRow key={child.path} {...props} node={child} depth={depth + 1} />
            ))
          )}
        </ul>
      )}
    </li>
  );
}

interface NameBoxProps {
  edit: NameEdit;
  depth: number;
  initial?: string;
  onCommit: (name: string) => void;
  onCancel: () => void;
}

/** The labelled text box a new or renamed name is typed into: Enter keeps it, Escape cancels. */
function NameBox({ edit, depth, initial = "", onCommit, onCancel }: NameBoxProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    input.focus();
    // Select the name without its extension, as editors do.
    const dot = initial.lastIndexOf(".");
    input.setSelectionRange(0, dot > 0 ? dot : initial.length);
  }, [initial]);
  const label =
    edit.mode === "rename"
      ? `New name for ${edit.path}`
      : edit.mode === "file"
        ? "New file name"
        : "New folder name";
  return (
    <li role="none" className="tree-name-box" style={{ paddingLeft: `${8 + depth * 14}px` }}>
      <input
        ref={inputRef}
        aria-label={label}
        className="tree-name-input"
        defaultValue={initial}
        spellCheck={false}
        {...KEEPS_ESCAPE}
        onKeyDown={(event) => {
          event.stopPropagation();
          if (event.key === "Enter") onCommit(event.currentTarget.value);
          if (event.key === "Escape") onCancel();
        }}
        onBlur={onCancel}
      />
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
