import { create } from "zustand";

interface FormatState {
  /** Formats the file the editor shows; null while no editor is up. */
  run: (() => void) | null;
  /** A format is under way (the first one of a language also loads its formatter). */
  isFormatting: boolean;
}

/** Format Document as the editor offers it, for the button outside the editor. */
export const useFormatStore = create<FormatState>(() => ({ run: null, isFormatting: false }));
