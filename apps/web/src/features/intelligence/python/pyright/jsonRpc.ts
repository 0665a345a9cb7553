/** The two ends of a message channel: a Worker, or a fake in tests. */
export interface MessagePortLike {
  postMessage(message: unknown): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  removeEventListener(type: "message", listener: (event: MessageEvent) => void): void;
}

type Id = number | string;

interface Incoming {
  id?: Id | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { message?: unknown };
}

function isIncoming(value: unknown): value is Incoming {
  return typeof value === "object" && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === "2.0";
}

/**
 * JSON-RPC 2.0 over postMessage, as vscode-jsonrpc's browser transport speaks it: messages
 * are plain objects, one per postMessage. Requests the server sends us get an answer from
 * `onRequest` or null (a server waits for every reply, so none may go unanswered).
 */
export class JsonRpc {
  private nextId = 1;
  private readonly pending = new Map<Id, { resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly notifications = new Map<string, (params: unknown) => void>();
  private readonly requests = new Map<string, (params: unknown) => unknown>();
  private isClosed = false;

  constructor(private readonly port: MessagePortLike) {
    port.addEventListener("message", this.receive);
  }

  /**
   * Sends a request. `whenCancelled`, if given, receives a function that tells the server to
   * stop (LSP's `$/cancelRequest`); the answer then is whatever the server still sends.
   */
  request(method: string, params: unknown, whenCancelled?: (cancel: () => void) => void): Promise<unknown> {
    if (this.isClosed) return Promise.reject(new Error("connection closed"));
    const id = this.nextId++;
    const answer = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.port.postMessage({ jsonrpc: "2.0", id, method, params });
    });
    whenCancelled?.(() => {
      if (this.pending.has(id)) this.notify("$/cancelRequest", { id });
    });
    return answer;
  }

  notify(method: string, params: unknown): void {
    if (!this.isClosed) this.port.postMessage({ jsonrpc: "2.0", method, params });
  }

  onNotification(method: string, handler: (params: unknown) => void): void {
    this.notifications.set(method, handler);
  }

  onRequest(method: string, handler: (params: unknown) => unknown): void {
    this.requests.set(method, handler);
  }

  /** Rejects every pending request; later calls reject at once. */
  close(): void {
    this.isClosed = true;
    this.port.removeEventListener("message", this.receive);
    for (const { reject } of this.pending.values()) reject(new Error("connection closed"));
    this.pending.clear();
  }

  private readonly receive = (event: MessageEvent) => {
    const message: unknown = event.data;
    if (!isIncoming(message)) return;
    if (message.method !== undefined && message.id !== undefined && message.id !== null) {
      const handler = this.requests.get(message.method);
      const result = handler ? handler(message.params) : null;
      this.port.postMessage({ jsonrpc: "2.0", id: message.id, result: result ?? null });
    } else if (message.method !== undefined) {
      this.notifications.get(message.method)?.(message.params);
    } else if (message.id !== undefined && message.id !== null) {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (!waiting) return;
      if (message.error) waiting.reject(new Error(String(message.error.message ?? "request failed")));
      else waiting.resolve(message.result);
    }
  };
}
