import { create } from "zustand";

interface OpenFilesState {
  /** Ids of the files open in tabs, in tab order. */
  openIds: string[];
  /** The file shown in the editor. */
  activeId: string | null;
}

/** The tabs of the editor: which files are open and which one is shown. */
export const useOpenFiles = create<OpenFilesState>()(() => ({ openIds: [], activeId: null }));

/** Opens a file in a tab (or shows its tab) and makes it the active one. */
export function openFile(id: string): void {
  useOpenFiles.setState((s) => ({
    openIds: s.openIds.includes(id) ? s.openIds : [...s.openIds, id],
    activeId: id,
  }));
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
  useOpenFiles.setState({ openIds: [], activeId: null });
}
