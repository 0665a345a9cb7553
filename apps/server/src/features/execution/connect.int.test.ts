import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type BuiltUser, buildUser, startTestServer, type TestServer } from "../../../test/harness";

/**
 * A client of Piston's WebSocket API written from Piston's documentation (readme, "Interactive
 * execution"): it connects to /api/v2/connect, sends `init` (execute's body), `data` on
 * stdin and `signal`, and records every message and the close code and reason.
 */
class PistonClient {
  readonly messages: Record<string, unknown>[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly ws: WebSocket;
  readonly opened: Promise<void>;

  constructor(url: string, token?: string, authorization = token ? `Bearer ${token}` : undefined) {
    this.ws = new WebSocket(url, authorization ? { headers: { Authorization: authorization } } : {});
    this.ws.on("message", (raw) => this.messages.push(JSON.parse(raw.toString())));
    this.opened = new Promise((resolve, reject) => {
      this.ws.once("open", () => resolve());
      this.ws.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      this.ws.once("error", reject);
    });
    this.closed = new Promise((resolve) =>
      this.ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  send(message: unknown) {
    this.ws.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  init(language: string, content: string, extra: Record<string, unknown> = {}) {
    this.send({ type: "init", language, version: "*", files: [{ content }], ...extra });
  }

  stdin(data: string) {
    this.send({ type: "data", stream: "stdin", data });
  }

  ofType(type: string) {
    return this.messages.filter((m) => m.type === type);
  }

  async waitFor(check: () => boolean, timeoutMs = 10_000) {
    const until = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > until) throw new Error(`timed out; messages: ${JSON.stringify(this.messages)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  stdout() {
    return this.ofType("data")
      .filter((m) => m.stream === "stdout")
      .map((m) => m.data)
      .join("");
  }
}

// The API is database-independent; one home keeps the suite fast on two cores.
describe("Piston's WebSocket API (/api/v2/connect)", () => {
  let server: TestServer;
  let user: BuiltUser;
  const url = () => `${server.url.replace(/^http/, "ws")}/api/v2/connect`;
  const client = async () => {
    const c = new PistonClient(url(), user.token);
    await c.opened;
    return c;
  };
  const SLEEPER = "import time\nprint('up', flush=True)\ntime.sleep(20)\n";

  beforeAll(async () => {
    server = await startTestServer("embedded", { RUN_RATE_MAX: "1000" });
    user = await buildUser(server.api);
  });
  afterAll(() => server.close());

  it("is for signed-in users: no token or a bad one is refused with 401 before the upgrade", async () => {
    await expect(new PistonClient(url()).opened).rejects.toThrow("HTTP 401");
    await expect(new PistonClient(url(), "not-a-token").opened).rejects.toThrow("HTTP 401");
    await expect(new PistonClient(url(), "ens_not-a-token").opened).rejects.toThrow("HTTP 401");
  });

  it("takes a personal API token, as Bearer or bare, as /api/v2/execute does", async () => {
    const created = await server.api.post("/api/users/me/tokens", { name: "connect" }, user.token);
    const token = String(created.body.token);
    // One at a time: a connection has 1 s to send its init, and the first run may take longer.
    for (const open of [
      () => new PistonClient(url(), token),
      () => new PistonClient(url(), undefined, token),
    ]) {
      const c = open();
      await c.opened;
      c.init("python", "print('via token')\n");
      expect(await c.closed).toEqual({ code: 4999, reason: "Job Completed" });
      expect(c.stdout()).toBe("via token\n");
    }
  });

  it("runs an interactive program: runtime, stage, stdout as written, stdin, exit, then 4999", async () => {
    const c = await client();
    c.init("python", "name = input('name? ')\nprint('hi', name)\n");
    await c.waitFor(() => c.stdout() === "name? ");
    expect(c.messages.slice(0, 2)).toEqual([
      { type: "runtime", language: "python", version: expect.stringMatching(/^3\./) },
      { type: "stage", stage: "run" },
    ]);
    c.stdin("Ada\n");
    expect(await c.closed).toEqual({ code: 4999, reason: "Job Completed" });
    expect(c.stdout()).toBe("name? hi Ada\n");
    expect(c.messages.at(-1)).toEqual({ type: "exit", stage: "run", code: 0, signal: null });
  });

  it("compiles a compiled language first: stage compile, its output, exit compile, then the interactive run", async () => {
    const c = await client();
    c.init(
      "c",
      '#include <stdio.h>\nint main(void) { char s[32]; printf("name? "); fflush(stdout); if (scanf("%31s", s) == 1) printf("hi %s\\n", s); return 0; }\n',
      { name: "main.c" },
    );
    await c.waitFor(() => c.stdout() === "name? ");
    c.stdin("Ada\n");
    expect(await c.closed).toEqual({ code: 4999, reason: "Job Completed" });
    const types = c.messages.map((m) =>
      m.type === "data" ? `data ${m.stream}` : `${m.type} ${m.stage ?? ""}`.trim(),
    );
    expect(types).toEqual([
      "runtime",
      "stage compile",
      "exit compile",
      "stage run",
      "data stdout",
      "data stdout",
      "exit run",
    ]);
    expect(c.ofType("exit")[0]).toEqual({ type: "exit", stage: "compile", code: 0, signal: null });
    expect(c.stdout()).toBe("name? hi Ada\n");
    const failed = await client();
    failed.init("c", "int main(void) { return x; }\n");
    expect((await failed.closed).code).toBe(4999);
    const stderr = failed
      .ofType("data")
      .filter((m) => m.stream === "stderr")
      .map((m) => m.data)
      .join("");
    expect(stderr).toMatch(/error: .x. undeclared/);
    // No run stage after a failed compile.
    expect(failed.ofType("stage")).toEqual([{ type: "stage", stage: "compile" }]);
    expect(failed.ofType("exit")).toEqual([{ type: "exit", stage: "compile", code: 1, signal: null }]);
  });

  it("streams stderr as its own stream, and a signal ends the run (SIGKILL)", async () => {
    const c = await client();
    c.init("javascript", "console.error('warn'); console.log('up'); setInterval(() => {}, 1000);");
    await c.waitFor(() => c.stdout() === "up\n");
    expect(c.ofType("data")).toContainEqual({ type: "data", stream: "stderr", data: "warn\n" });
    c.send({ type: "signal", signal: "SIGKILL" });
    expect(await c.closed).toEqual({ code: 4999, reason: "Job Completed" });
    expect(c.messages.at(-1)).toEqual({ type: "exit", stage: "run", code: null, signal: "SIGKILL" });
  });

  it("SIGINT reaches the program, which may handle it", async () => {
    const c = await client();
    c.init(
      "python",
      "import signal, sys, time\nsignal.signal(signal.SIGINT, lambda *a: (print('bye'), sys.exit(3)))\nprint('up', flush=True)\ntime.sleep(20)\n",
    );
    await c.waitFor(() => c.stdout() === "up\n");
    c.send({ type: "signal", signal: "SIGINT" });
    expect((await c.closed).code).toBe(4999);
    expect(c.stdout()).toBe("up\nbye\n");
    expect(c.messages.at(-1)).toEqual({ type: "exit", stage: "run", code: 3, signal: null });
  });

  it("closes with 4001 when no init comes within a second", async () => {
    const c = await client();
    const started = Date.now();
    expect(await c.closed).toEqual({ code: 4001, reason: "Initialization Timeout" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("closes with 4003 for data or a signal before init", async () => {
    const data = await client();
    data.stdin("early");
    expect(await data.closed).toEqual({ code: 4003, reason: "Not yet initialized" });
    const signal = await client();
    signal.send({ type: "signal", signal: "SIGKILL" });
    expect(await signal.closed).toEqual({ code: 4003, reason: "Not yet initialized" });
  });

  it("closes with 4004 for data on a stream other than stdin, 4005 for an unknown signal, 4000 for a second init", async () => {
    const stream = await client();
    stream.init("python", SLEEPER);
    await stream.waitFor(() => stream.stdout() === "up\n");
    stream.send({ type: "data", stream: "stdout", data: "x" });
    expect(await stream.closed).toEqual({ code: 4004, reason: "Can only write to stdin" });

    const signal = await client();
    signal.init("python", SLEEPER);
    await signal.waitFor(() => signal.stdout() === "up\n");
    signal.send({ type: "signal", signal: "SIGNOTAREALONE" });
    expect(await signal.closed).toEqual({ code: 4005, reason: "Invalid signal" });

    const twice = await client();
    twice.init("python", SLEEPER);
    await twice.waitFor(() => twice.stdout() === "up\n");
    twice.init("python", SLEEPER);
    expect(await twice.closed).toEqual({ code: 4000, reason: "Already Initialized" });
    // Each closed connection cancelled its run.
    await twice.waitFor(() => server.app.execution.service.queue.running === 0);
  });

  it("answers a bad message or init with an error message, then 4002, as Piston does", async () => {
    const cases: [unknown, string][] = [
      [{ type: "init", version: "*", files: [{ content: "1" }] }, "language is required as a string"],
      [
        { type: "init", language: "cobol", version: "*", files: [{ content: "1" }] },
        "cobol-* runtime is unknown",
      ],
      [
        {
          type: "init",
          language: "python",
          version: "*",
          files: [{ content: "1" }],
          run_timeout: 10_000_000,
        },
        "run_timeout cannot exceed the configured limit of 10000",
      ],
      ["not json", "Messages must be JSON objects with a type"],
      [{ type: "launch" }, "Unknown message type: launch"],
    ];
    for (const [message, error] of cases) {
      const c = await client();
      c.send(message);
      expect(await c.closed, error).toEqual({ code: 4002, reason: "Notified Error" });
      expect(c.messages).toEqual([{ type: "error", message: error }]);
    }
  });

  it("bounds the signals of a connection: past 16 an error and 4002", async () => {
    const c = await client();
    c.init(
      "python",
      "import signal, time\nsignal.signal(signal.SIGUSR1, lambda *a: None)\nprint('up', flush=True)\ntime.sleep(20)\n",
    );
    await c.waitFor(() => c.stdout() === "up\n");
    for (let i = 0; i < 17; i += 1) c.send({ type: "signal", signal: "SIGUSR1" });
    expect(await c.closed).toEqual({ code: 4002, reason: "Notified Error" });
    expect(c.ofType("error")).toEqual([{ type: "error", message: "A run takes at most 16 signals." }]);
  });

  it("bounds the stdin of a run: a flood is refused with an error and 4002, and the run is cancelled", async () => {
    const c = await client();
    c.init("python", "import sys\nprint('up', flush=True)\nprint(len(sys.stdin.read()))\n");
    await c.waitFor(() => c.stdout() === "up\n");
    const chunk = "z".repeat(8 * 1024);
    for (let i = 0; i < 9; i += 1) c.stdin(chunk);
    expect(await c.closed).toEqual({ code: 4002, reason: "Notified Error" });
    expect(c.ofType("error")).toEqual([{ type: "error", message: "A run takes at most 64 KiB of input." }]);
    await c.waitFor(() => server.app.execution.service.queue.running === 0);
  });
});
