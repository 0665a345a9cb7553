import { describe, expect, it } from "vitest";
import { JsonRpc, type MessagePortLike } from "./jsonRpc";

/** A port whose sent messages are recorded and into which a test delivers messages. */
function fakePort() {
  const sent: unknown[] = [];
  const listeners = new Set<(event: MessageEvent) => void>();
  const port: MessagePortLike = {
    postMessage: (message) => sent.push(message),
    addEventListener: (_type, listener) => listeners.add(listener),
    removeEventListener: (_type, listener) => listeners.delete(listener),
  };
  const deliver = (data: unknown) => {
    for (const listener of listeners) listener({ data } as MessageEvent);
  };
  return { port, sent, deliver };
}

describe("JsonRpc", () => {
  it("matches answers to requests by id, in any order", async () => {
    const { port, sent, deliver } = fakePort();
    const rpc = new JsonRpc(port);
    const first = rpc.request("a", { n: 1 });
    const second = rpc.request("b", { n: 2 });
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: 1, method: "a", params: { n: 1 } },
      { jsonrpc: "2.0", id: 2, method: "b", params: { n: 2 } },
    ]);
    deliver({ jsonrpc: "2.0", id: 2, result: "two" });
    deliver({ jsonrpc: "2.0", id: 1, result: "one" });
    await expect(first).resolves.toBe("one");
    await expect(second).resolves.toBe("two");
  });

  it("rejects a request the server answers with an error", async () => {
    const { port, deliver } = fakePort();
    const rpc = new JsonRpc(port);
    const answer = rpc.request("a", null);
    deliver({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "boom" } });
    await expect(answer).rejects.toThrow("boom");
  });

  it("answers every request of the server, null when nobody handles it", () => {
    const { port, sent, deliver } = fakePort();
    const rpc = new JsonRpc(port);
    rpc.onRequest("workspace/configuration", () => [null]);
    deliver({ jsonrpc: "2.0", id: 7, method: "workspace/configuration", params: {} });
    deliver({ jsonrpc: "2.0", id: "x", method: "client/registerCapability", params: {} });
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: 7, result: [null] },
      { jsonrpc: "2.0", id: "x", result: null },
    ]);
  });

  it("hands notifications to their handler and ignores what is not JSON-RPC", () => {
    const { port, deliver } = fakePort();
    const rpc = new JsonRpc(port);
    const got: unknown[] = [];
    rpc.onNotification("textDocument/publishDiagnostics", (params) => got.push(params));
    deliver({ type: "browser/newWorker" });
    deliver({ jsonrpc: "2.0", method: "textDocument/publishDiagnostics", params: { uri: "u" } });
    expect(got).toEqual([{ uri: "u" }]);
  });

  it("tells the server to cancel a pending request, and not one already answered", async () => {
    const { port, sent, deliver } = fakePort();
    const rpc = new JsonRpc(port);
    const cancels: (() => void)[] = [];
    void rpc.request("slow", null, (cancel) => cancels.push(cancel));
    const quick = rpc.request("quick", null, (cancel) => cancels.push(cancel));
    deliver({ jsonrpc: "2.0", id: 2, result: 1 });
    await quick;
    for (const cancel of cancels) cancel();
    expect(sent.slice(2)).toEqual([{ jsonrpc: "2.0", method: "$/cancelRequest", params: { id: 1 } }]);
  });

  it("rejects pending and later requests once closed", async () => {
    const { port } = fakePort();
    const rpc = new JsonRpc(port);
    const pending = rpc.request("a", null);
    rpc.close();
    await expect(pending).rejects.toThrow("closed");
    await expect(rpc.request("b", null)).rejects.toThrow("closed");
  });
});
