// Node's type definitions (@types/node, the major of the sandbox's Node, and undici-types, which
// its fetch types import), bundled as text into this module's own chunk: about 0.3 MB brotli,
// loaded only for a session whose programs run on Node. apps/web declares @types/node; npm's
// workspaces hoist it (and undici-types) to the repository's node_modules, read here.
const NODE = import.meta.glob<string>(
  ["../../../../../../node_modules/@types/node/**/*.d.ts", "!**/ts5.6/**"],
  { query: "?raw", import: "default", eager: true },
);
const UNDICI = import.meta.glob<string>("../../../../../../node_modules/undici-types/*.d.ts", {
  query: "?raw",
  import: "default",
  eager: true,
});

/**
 * Each declaration file by the address the worker knows it at, `file:///node_modules/...`,
 * where module resolution from a `.d.ts` finds its neighbours and `undici-types`.
 */
export const NODE_TYPES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries({ ...NODE, ...UNDICI }).map(([path, text]) => [
    `file:///${path.slice(path.indexOf("node_modules/"))}`,
    text,
  ]),
);
