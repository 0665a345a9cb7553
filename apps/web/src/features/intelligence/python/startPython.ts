import type { monaco } from "../../../ui/monaco";
import { type ServiceState, useServiceStatus } from "../status";
import { startPyright } from "./pyright/startPyright";
import { sharedRuff } from "./ruffClient";
import { startRuffLint } from "./ruffLint";

/** Ruff's findings pyright also reports, left out while pyright runs so none shows twice. */
const PYRIGHT_ALSO_REPORTS = new Set(["invalid-syntax", "F821"]);

/**
 * Python intelligence for this tab: Ruff's lint on every Python model, and pyright's
 * completions, hover, definitions and diagnostics. Statuses: "Python" follows pyright,
 * "Ruff" the linter.
 */
export function startPython(): monaco.IDisposable {
  let isDisposed = false;
  // A load that ends after the editor went reports nothing.
  const set = (name: string, state: ServiceState) => {
    if (!isDisposed) useServiceStatus.getState().set(name, state);
  };
  set("Python", "loading");
  set("Ruff", "loading");
  let isPyrightUp = false;
  const ruff = sharedRuff();
  const lint = startRuffLint(ruff, (code) => isPyrightUp && PYRIGHT_ALSO_REPORTS.has(code ?? ""));
  void ruff.check("").then(
    () => set("Ruff", "ready"),
    () => set("Ruff", "failed"),
  );
  const pyright = startPyright();
  void pyright.ready.then((isReady) => {
    isPyrightUp = isReady;
    set("Python", isReady ? "ready" : "failed");
    // Lints made while pyright loaded still hold what it now reports itself.
    if (isReady) lint.refresh();
  });
  return {
    dispose: () => {
      isDisposed = true;
      lint.dispose();
      pyright.dispose();
      useServiceStatus.getState().remove("Python");
      useServiceStatus.getState().remove("Ruff");
    },
  };
}
