import type { editor } from "monaco-editor/editor/editor.api";

/** Every editor's theme (ui/monaco.ts defines it): Monaco's dark one, readable. */
export const EDITOR_THEME = "ensemble-dark";

/** The editor's background, which vs-dark's token colours are drawn on. */
export const EDITOR_BACKGROUND = "#1E1E1E";

/**
 * vs-dark with each token colour it draws below 4.5:1 on its background raised to WCAG AA
 * (Lighthouse flagged its comments on the editor route). editorTheme.test.ts checks every
 * colour of vs-dark against it, so a Monaco upgrade that adds a faint one fails there.
 */
export const EDITOR_THEME_DATA: editor.IStandaloneThemeData = {
  base: "vs-dark",
  inherit: true,
  // vs-dark's colour and its contrast, before → after.
  rules: [
    { token: "comment", foreground: "6A9955" }, // #608B4E 4.2 → 5.0 (VS Code's Dark+ comment)
    { token: "variable.predefined", foreground: "569CD6" }, // #4864AA 2.9 → 5.7
    { token: "regexp", foreground: "D16969" }, // #B46695 4.2 → 4.7
    { token: "annotation", foreground: "D47A7A" }, // #CC6666 4.5 → 5.5
    { token: "delimiter.html", foreground: "8C8C8C" }, // #808080 4.2 → 5.0
    { token: "delimiter.xml", foreground: "8C8C8C" }, // #808080 4.2 → 5.0
    { token: "tag.id.pug", foreground: "569CD6" }, // #4F76AC 3.6 → 5.7
    { token: "tag.class.pug", foreground: "569CD6" }, // #4F76AC 3.6 → 5.7
    { token: "string.sql", foreground: "F44747" }, // #FF0000 4.2 → 4.6
  ],
  colors: {},
};
