import type { Plugin } from "vite";

const STUB = "\0ensemble:monaco-ts-mode";

/**
 * Keeps Monaco's own TypeScript wiring (`tsMode.js`) out of the build. Our service
 * (src/features/intelligence/typescript) reuses Monaco's adapters, whose module imports
 * `register.js`, and that file asks to import `tsMode.js` the first time a JS or TS model
 * appears. `tsMode.js` would register a second, undisposable set of providers with two more
 * TypeScript workers, and its worker helper imports every editor feature that ui/monaco.ts
 * leaves out (diff editor, code lens, inlay hints...). It resolves to a module that does nothing.
 */
export function monacoTypeScriptMode(): Plugin {
  return {
    name: "ensemble:monaco-ts-mode",
    enforce: "pre",
    resolveId(source, importer) {
      const isMonacoRegister = importer
        ?.replaceAll("\\", "/")
        .endsWith("/languages/features/typescript/register.js");
      return source === "./tsMode.js" && isMonacoRegister ? STUB : null;
    },
    load(id) {
      if (id !== STUB) return null;
      return [
        "export function setupTypeScript() {}",
        "export function setupJavaScript() {}",
        "const absent = () => Promise.reject(new Error(\"Monaco's TypeScript mode is replaced by Ensemble's\"));",
        "export const getTypeScriptWorker = absent;",
        "export const getJavaScriptWorker = absent;",
      ].join("\n");
    },
  };
}
