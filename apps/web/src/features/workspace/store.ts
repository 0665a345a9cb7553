import { create } from "zustand";
import { useCollabStore } from "../collab/store";

/** A place in a file the editor shows once the file is open (then forgets). */
export interface RevealRequest {
  id: string;
  line: number;
  column: number;
}

interface OpenFilesState {
  /** Ids of the files open in tabs, in tab order. */
  openIds: string[];
  /** The file shown in the editor. */
  activeId: string | null;
  /** Where the editor puts the caret next (openFileAt), or null. */
  reveal: RevealRequest | null;
}

/** The tabs of the editor: which files are open and which one is shown. */
export const useOpenFiles = create<OpenFilesState>()(() => ({
  openIds: [],
  activeId: null,
  reveal: null,
}));

/** Opens a file in a tab (or shows its tab) and makes it the active one. */
export function openFile(id: string): void {
  useOpenFiles.setState((s) => ({
    openIds: s.openIds.includes(id) ? s.openIds : [...s.openIds, id],
    activeId: id,
  }));
}

/**
 * Opens the workspace file at `path` with the caret at the line and column (from 1), scrolled
 * into view and focused: what a click on an error's `path:line` does. False when there is no
 * such file.
 */
export function openFileAt(path: string, line: number, column = 1): boolean {
  const id = useCollabStore.getState().files.find((file) => file.path === path)?.id;
  if (!id) return false;
  openFile(id);
  useOpenFiles.setState({ reveal: { id, line: Math.max(1, line), column: Math.max(1, column) } });
  return true;
}

/** The editor showed the requested place. */
export function clearReveal(): void {
  useOpenFiles.setState({ reveal: null });
}

/** Closes a tab; the tab beside it becomes active. */
export function closeFile(id: string): void {
  useOpenFiles.setState((s) => {
    const index = s.openIds.indexOf(id);
    if (index === -1) return s;
    const openIds = s.openIds.filter((open) => open !== id);
    const activeId = s.activeId === id ? (openIds[Math.min(index, openIds.length - 1)] ?? null) : s.activeId;
    return { openIds, activeId };
  });
}

/** Forgets every tab (a new session). */
export function resetOpenFiles(): void {
  useOpenFiles.setState({ openIds: [], activeId: null, reveal: null });
}
