import { type Language, runEntry, WORKSPACE_MESSAGES } from "@ensemble/protocol";
import type { WorkspaceFile } from "../collab/index";

export type ProjectPlan =
  | { ok: true; language: Language; entry: string; files: WorkspaceFile[] }
  | { ok: false; message: string };

/**
 * What Run Code runs: the whole workspace, entered at the open file when it is `.js`, `.mjs`
 * or `.py` (its extension picks the language), otherwise at the session language's main file.
 * The entry comes first, as the execution service expects.
 */
export function planProject(
  files: WorkspaceFile[],
  openFile: string | undefined,
  sessionLanguage: Language,
): ProjectPlan {
  const { language, entry } = runEntry(openFile, sessionLanguage);
  const entryFile = files.find((file) => file.path === entry);
  if (!entryFile) return { ok: false, message: WORKSPACE_MESSAGES.notFound(entry) };
  return { ok: true, language, entry, files: [entryFile, ...files.filter((file) => file !== entryFile)] };
}
