import { defineChannel } from "../../lib/sessionChannels";
import { resetRunDiagnostics, setRunDiagnostics } from "./store";

/**
 * The session's run diagnostics: the server sends them to everyone when a run starts (none)
 * and ends, and to us after each join with the terminal's history (the terminal channel asks).
 */
export const diagnosticsChannel = defineChannel("diagnostics", ({ link }) => {
  resetRunDiagnostics();
  link.listen("runDiagnostics", ({ runId, diagnostics }) => setRunDiagnostics(runId ?? null, diagnostics));
  return {};
});
