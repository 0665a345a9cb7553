import { toRuffDiagnostics } from "./ruffDiagnostics";
import type { RuffDiagnostic, RuffRequest, RuffResponse } from "./ruffProtocol";

/**
 * The page's side of the Ruff worker: one worker for the tab, requests answered in any order
 * by id. The worker (and its 11 MB of WebAssembly) is made on the first request.
 */
export class RuffClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, (response: RuffResponse) => void>();

  /** Lints `text`; rejects if Ruff failed to load. */
  async check(text: string): Promise<RuffDiagnostic[]> {
    const response = await this.request({ id: this.nextId++, kind: "check", text });
    if (!response.ok) throw new Error(response.message);
    return "diagnostics" in response ? toRuffDiagnostics(response.diagnostics) : [];
  }

  /** Formats `text`; rejects with Ruff's message on a syntax error. */
  async format(text: string): Promise<string> {
    const response = await this.request({ id: this.nextId++, kind: "format", text });
    if (!response.ok) throw new Error(response.message);
    return "formatted" in response ? response.formatted : text;
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
    for (const resolve of this.pending.values()) resolve({ id: 0, ok: false, message: "Ruff stopped" });
    this.pending.clear();
  }

  private request(request: RuffRequest): Promise<RuffResponse> {
    const worker = this.worker ?? this.spawn();
    return new Promise((resolve) => {
      this.pending.set(request.id, resolve);
      worker.postMessage(request);
    });
  }

  private spawn(): Worker {
    const worker = new Worker(new URL("./ruff.worker.ts", import.meta.url), { type: "module", name: "ruff" });
    worker.addEventListener("message", (event: MessageEvent<RuffResponse>) => {
      const resolve = this.pending.get(event.data.id);
      this.pending.delete(event.data.id);
      resolve?.(event.data);
    });
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      this.dispose();
    });
    this.worker = worker;
    return worker;
  }
}

let shared: RuffClient | null = null;

/** The tab's one Ruff (lint and Format Document share its worker). */
export function sharedRuff(): RuffClient {
  shared ??= new RuffClient();
  return shared;
}
