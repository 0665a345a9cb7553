import { z } from "zod";
import { create } from "zustand";
import { read, write } from "../../lib/storage";

/** This person's choices, kept in this browser (not the session's: each person decides). */
const PERSONAL_KEY = "ensemble-intelligence";
const PersonalSchema = z.object({ completions: z.boolean(), diagnostics: z.boolean() });
type Personal = z.infer<typeof PersonalSchema>;

function readPersonal(): Personal {
  try {
    const parsed = PersonalSchema.safeParse(JSON.parse(read(PERSONAL_KEY) ?? "null"));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: the defaults, written over at the next change.
  }
  return { completions: true, diagnostics: true };
}

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
  ...readPersonal(),
  sessionCompletions: true,
  set: (change) => set(change),
}));

/** Changes this person's own choices and keeps them in this browser for their next sessions. */
export function setPersonalSettings(change: Partial<Personal>): void {
  const state = useIntelligenceSettings.getState();
  state.set(change);
  const { completions, diagnostics } = useIntelligenceSettings.getState();
  write(PERSONAL_KEY, JSON.stringify({ completions, diagnostics }));
}

/** Whether completion lists may show now (a service's provider answers nothing otherwise). */
export function completionsAllowed(): boolean {
  const { completions, sessionCompletions } = useIntelligenceSettings.getState();
  return completions && sessionCompletions;
}

/** Whether services' diagnostics are shown now (a service clears its markers otherwise). */
export function diagnosticsShown(): boolean {
  return useIntelligenceSettings.getState().diagnostics;
}
