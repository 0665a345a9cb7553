import { create } from "zustand";

interface SessionUiState {
  /** Link of the last session created in this tab, shown on the hero (spec §2). */
  sessionLink: string | null;
  isCreating: boolean;
  isJoining: boolean;
  setSessionLink: (link: string) => void;
  setCreating: (value: boolean) => void;
  setJoining: (value: boolean) => void;
}

/** UI state of the create/join flows; kept outside the dialogs so the hero can show the link. */
export const useSessionStore = create<SessionUiState>()((set) => ({
  sessionLink: null,
  isCreating: false,
  isJoining: false,
  setSessionLink: (sessionLink) => set({ sessionLink }),
  setCreating: (isCreating) => set({ isCreating }),
  setJoining: (isJoining) => set({ isJoining }),
}));
