import { registerFormatter } from "../formatters";

/**
 * Python in the browser: Ruff (WebAssembly) lints and formats, pyright completes, hovers,
 * finds definitions and type-checks. Both run in Web Workers, loaded when the first Python
 * file appears; nothing here runs on the server.
 */
// Typed where it is listed (services.ts): importing that type here would make an import cycle.
export const pythonService = {
  name: "Python",
  languages: ["python"] as const,
  async start() {
    const { startPython } = await import("./startPython");
    return startPython();
  },
};

// Format Document: Ruff's formatter, its worker loaded on the first use.
registerFormatter(["python"], async (text) => {
  const { sharedRuff } = await import("./ruffClient");
  return sharedRuff().format(text);
});
