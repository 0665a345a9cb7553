// Monaco from the npm package, bundled by Vite: the editor core, the editing features a
// code editor needs, and syntax highlighting for the workspace's file types. Language services
// load on demand (features/intelligence); the editor features they drive are here, since an
// editor takes its contributions when it is created: Go to Definition and Peek, Rename,
// parameter hints. Left out: what serves other products (diff editor, code lens, inlay hints,
// inline completions...). Nothing is fetched from a CDN.
import * as monaco from "monaco-editor/editor/editor.api";
import "monaco-editor/features/bracketMatching/register";
import "monaco-editor/features/caretOperations/register";
import "monaco-editor/features/clipboard/register";
import "monaco-editor/features/codicon/register";
import "monaco-editor/features/comment/register";
import "monaco-editor/features/contextmenu/register";
import "monaco-editor/features/cursorUndo/register";
import "monaco-editor/features/dnd/register";
import "monaco-editor/features/find/register";
import "monaco-editor/features/folding/register";
import "monaco-editor/features/fontZoom/register";
// Marker navigation (F8 / Shift+F8): a run's errors reached and read from the keyboard, not only by hovering.
import "monaco-editor/features/gotoError/register";
import "monaco-editor/features/gotoLine/register";
// Go to Definition (F12, Ctrl+click), Peek (Alt+F12) and Find All References (Shift+F12) for
// the language services; an editor takes the contributions that exist when it is made, so they
// cannot come with a service's lazy chunk.
import "monaco-editor/features/gotoSymbol/register";
import "monaco-editor/features/hover/register";
import "monaco-editor/features/indentation/register";
import "monaco-editor/features/lineSelection/register";
import "monaco-editor/features/linesOperations/register";
import "monaco-editor/features/links/register";
import "monaco-editor/features/multicursor/register";
import "monaco-editor/features/parameterHints/register";
import "monaco-editor/features/quickCommand/register";
import "monaco-editor/features/quickHelp/register";
import "monaco-editor/features/readOnlyMessage/register";
// The peek view that Peek Definition and references show in a standalone editor.
import "monaco-editor/features/referenceSearch/register";
import "monaco-editor/features/rename/register";
import "monaco-editor/features/smartSelect/register";
import "monaco-editor/features/snippet/register";
import "monaco-editor/features/suggest/register";
// The suggest widget itself (word-based completion); editor.main imports it, register.all does not.
import "monaco-editor/editor/contrib/suggest/browser/suggestController";
import "monaco-editor/features/toggleTabFocusMode/register";
import "monaco-editor/features/tokenization/register";
import "monaco-editor/features/unicodeHighlighter/register";
import "monaco-editor/features/unusualLineTerminators/register";
import "monaco-editor/features/wordHighlighter/register";
import "monaco-editor/features/wordOperations/register";
import "monaco-editor/features/wordPartOperations/register";
// Highlighting: each registration only declares its language; the grammar loads when a file
// of it opens. Every language record's `monaco` id is registered here (ui/monaco.test.ts).
import "monaco-editor/languages/definitions/clojure/register";
import "monaco-editor/languages/definitions/cpp/register";
import "monaco-editor/languages/definitions/csharp/register";
import "monaco-editor/languages/definitions/css/register";
import "monaco-editor/languages/definitions/elixir/register";
import "monaco-editor/languages/definitions/go/register";
import "monaco-editor/languages/definitions/html/register";
import "monaco-editor/languages/definitions/java/register";
import "monaco-editor/languages/definitions/javascript/register";
import "monaco-editor/languages/definitions/kotlin/register";
import "monaco-editor/languages/definitions/lua/register";
import "monaco-editor/languages/definitions/markdown/register";
import "monaco-editor/languages/definitions/mips/register";
import "monaco-editor/languages/definitions/pascal/register";
import "monaco-editor/languages/definitions/perl/register";
import "monaco-editor/languages/definitions/php/register";
import "monaco-editor/languages/definitions/python/register";
import "monaco-editor/languages/definitions/r/register";
import "monaco-editor/languages/definitions/ruby/register";
import "monaco-editor/languages/definitions/rust/register";
import "monaco-editor/languages/definitions/scheme/register";
import "monaco-editor/languages/definitions/shell/register";
import "monaco-editor/languages/definitions/sql/register";
import "monaco-editor/languages/definitions/swift/register";
import "monaco-editor/languages/definitions/typescript/register";
import EditorWorker from "monaco-editor/editor/editor.worker?worker";
import { EDITOR_THEME, EDITOR_THEME_DATA } from "./editorTheme";

globalThis.MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

monaco.editor.defineTheme(EDITOR_THEME, EDITOR_THEME_DATA);

export { EDITOR_THEME, monaco };
