import { LANGUAGE_MAIN_FILES, type Language, WORKSPACE_MESSAGES } from "@ensemble/protocol";
import type { WorkspaceFile } from "../collab/index";

const RUNNABLE: Record<string, Language> = { js: "javascript", mjs: "javascript", py: "python" };

/** The language a file runs with, by its extension, or undefined when Run Code cannot run it. */
export function runnableLanguage(path: string): Language | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? RUNNABLE[name.slice(dot + 1).toLowerCase()] : undefined;
}

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
  const openLanguage = openFile === undefined ? undefined : runnableLanguage(openFile);
  const language = openLanguage ?? sessionLanguage;
  const entry = openFile !== undefined && openLanguage ? openFile : LANGUAGE_MAIN_FILES[sessionLanguage];
  const entryFile = files.find((file) => file.path === entry);
  if (!entryFile) return { ok: false, message: WORKSPACE_MESSAGES.notFound(entry) };
  return { ok: true, language, entry, files: [entryFile, ...files.filter((file) => file !== entryFile)] };
}
