import { LANGUAGE_MAIN_FILES, type Language } from "@ensemble/protocol";
import { useEffect, useRef } from "react";
import { toast } from "react-toastify/unstyled";
import { useCollabStore } from "../collab/store";
import { closeFile, openFile, resetOpenFiles, useOpenFiles } from "./store";

/**
 * Keeps the tabs in step with the workspace: a new session opens its language's main file,
 * a language switch (ours or anyone's) opens the other main file, and a file deleted by
 * someone closes its tab with a notice. A renamed file keeps its tab: tabs hold ids.
 */
export function useWorkspaceTabs(sessionId: string, language: Language, isCurrent: boolean): void {
  const files = useCollabStore((s) => s.files);
  const knownPaths = useRef(new Map<string, string>());

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new session starts with no tabs
  useEffect(() => {
    resetOpenFiles();
    knownPaths.current = new Map();
    return resetOpenFiles;
  }, [sessionId]);

  useEffect(() => {
    if (!isCurrent) return;
    const ids = new Set(files.map((f) => f.id));
    for (const id of useOpenFiles.getState().openIds) {
      if (ids.has(id) || !knownPaths.current.has(id)) continue;
      toast.info(`${knownPaths.current.get(id)} was deleted.`);
      closeFile(id);
    }
    knownPaths.current = new Map(files.map((f) => [f.id, f.path]));
    if (useOpenFiles.getState().activeId === null) {
      const main = files.find((f) => f.path === LANGUAGE_MAIN_FILES[language]) ?? files[0];
      if (main) openFile(main.id);
    }
  }, [files, language, isCurrent]);

  const previousLanguage = useRef(language);
  useEffect(() => {
    if (previousLanguage.current === language) return;
    const main = files.find((f) => f.path === LANGUAGE_MAIN_FILES[language]);
    // The server creates the main file before it announces the switch; it is here.
    if (main) {
      previousLanguage.current = language;
      openFile(main.id);
    }
  }, [language, files]);
}
