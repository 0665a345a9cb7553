import { checkPath, type Presence } from "@ensemble/protocol";
import { type MouseEvent, useMemo, useState } from "react";
import { toast } from "react-toastify/unstyled";
import { Dialog, KEEPS_ESCAPE } from "../../ui/Dialog";
import type { CollabSession } from "../collab/CollabSession";
import { typistColor } from "../collab/presence";
import { useCollabStore } from "../collab/store";
import type { Activity } from "../collab/useActivity";
import { downloadWorkspace } from "./download";
import { FileTree, type FileVisitor, type NameEdit } from "./FileTree";
import { openFile } from "./store";
import { buildTree, join, parentOf, type TreeNode } from "./tree";
import { showUndo } from "./undoToast";

interface ExplorerProps {
  session: CollabSession | null;
  activePath: string | null;
  participants: Presence[];
  selfId: string | null;
  activity: Activity;
  canEdit: boolean;
  onOpened: () => void;
}

interface Menu {
  node: TreeNode | null;
  x: number;
  y: number;
}

/**
 * The session's files: the tree, New file / New folder / Download project, a context menu
 * (new, rename, delete) and the delete confirmation. Every change goes to the server, which
 * checks it; refusals show its message.
 */
export function Explorer({
  session,
  activePath,
  participants,
  selfId,
  activity,
  canEdit,
  onOpened,
}: ExplorerProps) {
  const files = useCollabStore((s) => s.files);
  const folders = useCollabStore((s) => s.folders);
  const isOffline = useCollabStore((s) => s.status !== "connected");
  const nodes = useMemo(() => buildTree(files, folders), [files, folders]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(["src"]));
  const [focusedPath, setFocusedPath] = useState<string | null>(null);
  const [nameEdit, setNameEdit] = useState<NameEdit | null>(null);
  const [menu, setMenu] = useState<Menu | null>(null);
  const [toDelete, setToDelete] = useState<TreeNode | null>(null);

  const visitors = useMemo(() => {
    const byFile = new Map<string, FileVisitor[]>();
    for (const person of participants) {
      const file = person.id === selfId ? undefined : activity.files.get(person.id);
      if (!file) continue;
      byFile.set(file, [...(byFile.get(file) ?? []), { name: person.name, color: typistColor(person.id) }]);
    }
    return byFile;
  }, [participants, selfId, activity.files]);

  const toggle = (path: string, isOpen: boolean) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (isOpen) next.add(path);
      else next.delete(path);
      return next;
    });

  /** The folder a new entry goes in: the focused folder, or the focused file's folder. */
  const targetFolder = (node: TreeNode | null) =>
    node ? (node.type === "folder" ? node.path : parentOf(node.path)) : "";

  const startNew = (mode: "file" | "folder", node: TreeNode | null) => {
    const folder = targetFolder(node);
    if (folder) toggle(folder, true);
    setNameEdit({ mode, folder });
  };

  const commitName = async (name: string) => {
    const edit = nameEdit;
    setNameEdit(null);
    if (!session || !edit || name.trim() === "") return;
    const path =
      edit.mode === "rename" ? join(parentOf(edit.path), name.trim()) : join(edit.folder, name.trim());
    const checked = checkPath(path);
    if (!checked.ok) {
      toast.error(checked.message);
      return;
    }
    if (edit.mode === "rename") {
      if (checked.path === edit.path) return;
      const from = edit.path;
      const renamed = await session.files.renamePath({ from, to: checked.path });
      if (!renamed.ok) {
        toast.error(renamed.error.message);
        return;
      }
      const to = renamed.data;
      setFocusedPath(to);
      showUndo(`Renamed "${from}" to "${to}".`, () => session.files.renamePath({ from: to, to: from }));
      return;
    }
    const created = await session.files.createFile({ path: checked.path, kind: edit.mode });
    if (!created.ok) {
      toast.error(created.error.message);
      return;
    }
    setFocusedPath(created.data);
    if (edit.mode === "file") {
      const id = session.fileIdAt(created.data);
      if (id) openFile(id);
      onOpened();
    }
  };

  const confirmDelete = async () => {
    const node = toDelete;
    setToDelete(null);
    if (!session || !node) return;
    const deleted = await session.files.deletePath({ path: node.path });
    if (!deleted.ok) {
      toast.error(deleted.error.message);
      return;
    }
    const deletion = deleted.data;
    showUndo(`Deleted "${deletion.path}".`, () => session.files.undoDelete(deletion));
  };

  const openMenu = (node: TreeNode | null, event: MouseEvent) =>
    setMenu({ node, x: event.clientX, y: event.clientY });

  const menuItems = (node: TreeNode | null) => [
    { label: "New file", run: () => startNew("file", node) },
    { label: "New folder", run: () => startNew("folder", node) },
    ...(node
      ? [
          { label: "Rename", run: () => setNameEdit({ mode: "rename", path: node.path, type: node.type }) },
          { label: "Delete", run: () => setToDelete(node) },
        ]
      : []),
  ];

  const focusedNode = findNode(nodes, focusedPath);

  return (
    <section className="sidebar-section explorer" aria-labelledby="explorer-heading">
      <div className="sidebar-heading-row">
        <h2 id="explorer-heading" className="sidebar-heading">
          Explorer
        </h2>
        <div className="explorer-actions">
          <button
            type="button"
            className="icon-button"
            disabled={!canEdit}
            onClick={() => startNew("file", focusedNode)}
            aria-label="New file"
            title="New file"
          >
            <ActionIcon d="M4 1.5h5.5L13 5v9.5H4zM8.5 7.5v5M6 10h5" />
          </button>
          <button
            type="button"
            className="icon-button"
            disabled={!canEdit}
            onClick={() => startNew("folder", focusedNode)}
            aria-label="New folder"
            title="New folder"
          >
            <ActionIcon d="M1.5 3.5h5l1.5 1.5h6.5v8.5h-13zM8 7v5M5.5 9.5h5" />
          </button>
          <button
            type="button"
            className="icon-button"
            disabled={!session || files.length === 0}
            onClick={() => session && downloadWorkspace(session, `ensemble-${session.sessionId}`)}
            aria-label="Download project"
            title="Download project"
          >
            <ActionIcon d="M8 2v8M4.5 6.5 8 10l3.5-3.5M2.5 13.5h11" />
          </button>
        </div>
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the right click on empty space is a mouse shortcut; the buttons above do the same */}
      <div
        className="explorer-body"
        onContextMenu={(event) => {
          event.preventDefault();
          if (canEdit) openMenu(null, event);
        }}
      >
        <FileTree
          nodes={nodes}
          expanded={expanded}
          focusedPath={focusedPath}
          activePath={activePath}
          visitors={visitors}
          nameEdit={nameEdit}
          onFocusPath={setFocusedPath}
          onToggle={toggle}
          onOpen={(node) => {
            if (!node.id) return;
            openFile(node.id);
            onOpened();
          }}
          onRename={(node) => canEdit && setNameEdit({ mode: "rename", path: node.path, type: node.type })}
          onDelete={(node) => canEdit && setToDelete(node)}
          onContextMenu={(node, event) => canEdit && openMenu(node, event)}
          onNameCommit={(name) => void commitName(name)}
          onNameCancel={() => setNameEdit(null)}
        />
      </div>
      {isOffline && canEdit && (
        <p className="explorer-note" role="status">
          Offline: new, renamed and deleted files are kept here and sent when the connection is back.
        </p>
      )}
      {menu && (
        <ContextMenu x={menu.x} y={menu.y} items={menuItems(menu.node)} onClose={() => setMenu(null)} />
      )}
      <Dialog
        isOpen={toDelete !== null}
        title={`Delete ${toDelete?.type === "folder" ? "folder" : "file"}?`}
        onClose={() => setToDelete(null)}
      >
        <p>
          Delete <strong>{toDelete?.path}</strong>
          {toDelete?.type === "folder" ? " and everything in it" : ""} for everyone in the session?
        </p>
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" onClick={() => setToDelete(null)}>
            Cancel
          </button>
          <button type="button" className="button button-danger" onClick={() => void confirmDelete()}>
            Delete
          </button>
        </div>
      </Dialog>
    </section>
  );
}

function ActionIcon({ d }: { d: string }) {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
      <path
        d={d}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function findNode(nodes: readonly TreeNode[], path: string | null): TreeNode | null {
  if (path === null) return null;
  for (const node of nodes) {
    if (node.path === path) return node;
    const inner = findNode(node.children, path);
    if (inner) return inner;
  }
  return null;
}

interface ContextMenuProps {
  x: number;
  y: number;
  items: { label: string; run: () => void }[];
  onClose: () => void;
}

/** A small menu at the pointer: arrow keys move, Enter runs, Escape or a click outside closes. */
function ContextMenu({ x, y, items, onClose }: ContextMenuProps) {
  const run = (item: { run: () => void }) => {
    onClose();
    item.run();
  };
  return (
    <>
      <button
        type="button"
        className="menu-backdrop"
        aria-label="Close menu"
        tabIndex={-1}
        onClick={onClose}
        onContextMenu={(e) => {
          e.preventDefault();
          onClose();
        }}
      />
      <div
        className="context-menu"
        role="menu"
        style={{ left: x, top: y }}
        tabIndex={-1}
        {...KEEPS_ESCAPE}
        ref={(element) => element?.querySelector<HTMLElement>("[role=menuitem]")?.focus()}
        onKeyDown={(event) => {
          const entries = [...event.currentTarget.querySelectorAll<HTMLElement>("[role=menuitem]")];
          const index = entries.indexOf(document.activeElement as HTMLElement);
          if (event.key === "Escape") onClose();
          if (event.key === "ArrowDown") entries[(index + 1) % entries.length]?.focus();
          if (event.key === "ArrowUp") entries[(index - 1 + entries.length) % entries.length]?.focus();
          if (event.key.startsWith("Arrow") || event.key === "Escape") event.preventDefault();
        }}
      >
        {items.map((item) => (
          <button
            key={item.label}
            type="button"
            role="menuitem"
            className="context-menu-item"
            onClick={() => run(item)}
          >
            {item.label}
          </button>
        ))}
      </div>
    </>
  );
}
