// Monaco from the npm package, bundled by Vite: the editor core, its editor features, and
// syntax highlighting for our two languages. No language services (the TypeScript worker
// alone is megabytes and busy CPU per tab); nothing is fetched from a CDN.
import * as monaco from "monaco-editor/editor/editor.api";
import "monaco-editor/features/register.all";
import "monaco-editor/languages/definitions/javascript/register";
import "monaco-editor/languages/definitions/python/register";
import EditorWorker from "monaco-editor/editor/editor.worker?worker";

globalThis.MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

export { monaco };
