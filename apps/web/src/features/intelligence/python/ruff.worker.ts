/// <reference lib="webworker" />
// Ruff's WebAssembly build off the main thread: a lint of a long file never delays a keystroke.
import init, { PositionEncoding, Workspace } from "@astral-sh/ruff-wasm-web";
import wasmUrl from "@astral-sh/ruff-wasm-web/ruff_wasm_bg.wasm?url";
import { RUFF_SETTINGS, type RuffRequest, type RuffResponse } from "./ruffProtocol";

declare const self: DedicatedWorkerGlobalScope;

const workspace: Promise<Workspace> = init({ module_or_path: wasmUrl }).then(
  () => new Workspace(RUFF_SETTINGS, PositionEncoding.Utf16),
);

function answer(request: RuffRequest, ruff: Workspace): RuffResponse {
  try {
    if (request.kind === "format") return { id: request.id, ok: true, formatted: ruff.format(request.text) };
    // Parsed on the page, which already has zod: the worker stays Ruff's glue alone.
    return { id: request.id, ok: true, diagnostics: ruff.check(request.text) };
  } catch (error) {
    return { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

self.addEventListener("message", (event: MessageEvent<RuffRequest>) => {
  const request = event.data;
  workspace.then(
    (ruff) => self.postMessage(answer(request, ruff)),
    (error: unknown) =>
      self.postMessage({ id: request.id, ok: false, message: `Ruff did not load: ${String(error)}` }),
  );
});
