import { z } from "zod";

/** The two editor languages and the file each one edits. */
export const LANGUAGES = {
  javascript: { id: "javascript", name: "JavaScript", extension: "js", file: "main.js" },
  python: { id: "python", name: "Python", extension: "py", file: "main.py" },
} as const;
export const LanguageSchema = z.enum(["javascript", "python"]);
export type Language = z.infer<typeof LanguageSchema>;
