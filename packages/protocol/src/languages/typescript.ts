import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/**
 * TypeScript on Debian's esbuild and Node.js: esbuild strips the types and bundles the entry
 * with the `.ts` files it imports, Node runs the result. Types are not checked (see
 * docs/languages.md: Debian's tsc takes seconds and has no Node types to check against).
 */
export const typescript = {
  id: "typescript",
  name: "TypeScript",
  aliases: ["ts", "node-ts", "tsc"],
  extensions: ["ts", "mts", "cts"],
  mainFile: "main.ts",
  starter: '// Welcome to Ensemble: edit together, run, review.\nconsole.log("Hello, world!");\n',
  monaco: "typescript",
  iconColor: "#3178c6",
  debianPackages: ["esbuild", "nodejs"],
  install: "default",
  compile: {
    command: "esbuild",
    args: [
      "{file}",
      "--bundle",
      "--platform=node",
      "--format=cjs",
      "--sourcemap",
      "--log-level=warning",
      "--outfile={out}/main.js",
    ],
  },
  // Source maps: a stack trace names the .ts file and line.
  // The server adds Node's stdio preload first, as for JavaScript (execution/runtimes.ts).
  run: { command: "node", args: ["--enable-source-maps", "{out}/main.js"] },
  version: { command: "esbuild", args: ["--version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
