import type { LanguageRecord } from "./record";

/** JavaScript on Debian's Node.js. */
export const javascript = {
  id: "javascript",
  name: "JavaScript",
  aliases: ["js", "node-js", "node-javascript", "javascript", "node"],
  runtime: "node",
  extensions: ["js", "mjs"],
  mainFile: "main.js",
  starter: '// Welcome to Ensemble: edit together, run, review.\nconsole.log("Hello, world!");\n',
  monaco: "javascript",
  iconColor: "#f7df1e",
  debianPackages: ["nodejs"],
  install: "default",
  // The server adds its stdio preload (`--require`) before the file: see execution/runtimes.ts.
  run: { command: "node", args: ["{file}"] },
  version: { command: "node", args: ["--version"], parse: (out) => out.trim().replace(/^v/, "") },
} as const satisfies LanguageRecord;
