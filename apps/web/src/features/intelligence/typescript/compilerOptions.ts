import { LANGUAGES, type Language } from "@ensemble/protocol";
import type {
  CompilerOptions,
  ModuleResolutionKind,
} from "monaco-editor/languages/features/typescript/register";

// TypeScript's enum values (Monaco's register.d.ts declares them as types only, and its
// ModuleResolutionKind stops before Bundler, which TypeScript 5.9 in the worker has).
const ESNEXT = 99;
const MODULE_RESOLUTION_BUNDLER = 100 as ModuleResolutionKind;

/**
 * Whether the session's programs run on Node.js (JavaScript directly, TypeScript after esbuild),
 * so Node's globals and modules (`require("fs")`, `process`) belong in its files' types.
 */
export function runsOnNode(language: Language): boolean {
  return LANGUAGES[language].run.command === "node";
}

/**
 * The compiler options of the workspace's one TypeScript program, JS and TS files together.
 * Module resolution as a bundler resolves it (esbuild bundles a TypeScript session; Node runs
 * a JavaScript one): `./util`, `./util.js` and `./util.ts` all find `util.ts`. JavaScript is
 * checked only where a file asks (`// @ts-check`), as in VS Code. VS Code's checks for files
 * without a tsconfig: null checks and function types, not implicit any. Node's sessions get no
 * DOM (a `document` there is an error at run time); others keep the default library.
 */
export function compilerOptions(isNode: boolean): CompilerOptions {
  return {
    target: ESNEXT,
    module: ESNEXT,
    moduleResolution: MODULE_RESOLUTION_BUNDLER,
    allowJs: true,
    checkJs: false,
    allowNonTsExtensions: true,
    allowImportingTsExtensions: true,
    noEmit: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    strictNullChecks: true,
    strictFunctionTypes: true,
    // No folder to search for @types: Node's come as extra files (nodeTypes.ts).
    types: [],
    ...(isNode ? { lib: ["esnext"] } : {}),
  };
}
