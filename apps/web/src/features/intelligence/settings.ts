import { create } from "zustand";

/**
 * Who may see completions and diagnostics. Each person switches their own (kept in this
 * browser); the host may switch completions off for the whole session (interview mode),
 * and every browser of the session obeys.
 */
interface IntelligenceSettings {
  /** This person's choice. */
  completions: boolean;
  /** This person's choice. */
  diagnostics: boolean;
  /** The session's: false while the host has completions off for everyone. */
  sessionCompletions: boolean;
  set(
    change: Partial<Pick<IntelligenceSettings, "completions" | "diagnostics" | "sessionCompletions">>,
  ): void;
}

export const useIntelligenceSettings = create<IntelligenceSettings>((set) => ({
  completions: true,
  diagnostics: true,
  sessionCompletions: true,
  set: (change) => set(change),
}));

/** Whether completion lists may show now (a service's provider answers nothing otherwise). */
export function completionsAllowed(): boolean {
  const { completions, sessionCompletions } = useIntelligenceSettings.getState();
  return completions && sessionCompletions;
}

/** Whether services' diagnostics are shown now (a service clears its markers otherwise). */
export function diagnosticsShown(): boolean {
  return useIntelligenceSettings.getState().diagnostics;
}
