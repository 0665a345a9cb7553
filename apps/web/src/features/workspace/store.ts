import { create } from "zustand";

interface OpenFilesState {
  /** Ids of the files open in tabs, in tab order. */
  openIds: string[];
  /** The file shown in the editor. */
  activeId: string | null;
  /** A place the editor is asked to show (a link in the terminal), until it has. */
  reveal: FileLocation | null;
}

/** A place in a workspace file: 1-based line and column. */
export interface FileLocation {
  id: string;
  line: number;
  column?: number | undefined;
}

/** The tabs of the editor: which files are open and which one is shown. */
export const useOpenFiles = create<OpenFilesState>()(() => ({ openIds: [], activeId: null, reveal: null }));

/** Opens a file in a tab (or shows its tab) and makes it the active one. */
export function openFile(id: string): void {
  useOpenFiles.setState((s) => ({
    openIds: s.openIds.includes(id) ? s.openIds : [...s.openIds, id],
    activeId: id,
  }));
}

/** Opens a file and asks the editor to put the caret at `line` (and `column`) and show it. */
export function openFileAt(id: string, line: number, column?: number): void {
  openFile(id);
  useOpenFiles.setState({ reveal: { id, line, ...(column !== undefined ? { column } : {}) } });
}

/** The editor has shown `reveal`. */
export function revealed(reveal: FileLocation): void {
  useOpenFiles.setState((s) => (s.reveal === reveal ? { reveal: null } : {}));
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
