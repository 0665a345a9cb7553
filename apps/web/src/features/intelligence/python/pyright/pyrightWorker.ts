import workerUrl from "browser-basedpyright/dist/pyright.worker.js?url";

/**
 * Starts browser-basedpyright's foreground worker and returns it once booted. The worker asks
 * the page for background analysis workers (`browser/newWorker`, with a MessagePort); they are
 * the same script booted in "background" mode, and `stop()` ends them all.
 */
export function bootPyright(): { foreground: Worker; stop(): void } {
  const workers: Worker[] = [];
  // A classic worker: the file is a webpack bundle served as-is from our origin.
  const foreground = new Worker(workerUrl, { name: "pyright" });
  workers.push(foreground);
  foreground.addEventListener("message", (event: MessageEvent) => {
    const data: unknown = event.data;
    if (!isNewWorkerRequest(data)) return;
    const background = new Worker(workerUrl, { name: `pyright-background-${workers.length}` });
    workers.push(background);
    background.postMessage(
      { type: "browser/boot", mode: "background", initialData: data.initialData, port: data.port },
      [data.port],
    );
  });
  foreground.postMessage({ type: "browser/boot", mode: "foreground" });
  return {
    foreground,
    stop: () => {
      for (const worker of workers) worker.terminate();
    },
  };
}

function isNewWorkerRequest(data: unknown): data is { initialData: unknown; port: MessagePort } {
  return (
    typeof data === "object" &&
    data !== null &&
    (data as { type?: unknown }).type === "browser/newWorker" &&
    (data as { port?: unknown }).port instanceof MessagePort
  );
}
