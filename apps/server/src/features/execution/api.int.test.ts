import { execFileSync } from "node:child_process";
import { LANGUAGE_RECORDS, RuntimeSchema } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startFakePiston } from "../../../test/fakePiston";
import { type BuiltUser, buildUser, startTestServer, type TestServer } from "../../../test/harness";

const js = (content: string, extra: Record<string, unknown> = {}) => ({
  language: "javascript",
  version: "*",
  files: [{ content }],
  ...extra,
});

// The API is database-independent; one home keeps the suite fast on two cores.
describe("Piston API (/api/v2) with the built-in sandbox", () => {
  let server: TestServer;
  let user: BuiltUser;
  const execute = (body: unknown, token = user.token) => server.api.post("/api/v2/execute", body, token);

  beforeAll(async () => {
    server = await startTestServer("embedded", { RUN_RATE_MAX: "1000" });
    user = await buildUser(server.api);
  });
  afterAll(() => server.close());

  it("lists the installed runtimes with Piston's fields and aliases, without a token", async () => {
    const res = await server.api.get("/api/v2/runtimes");
    expect(res.status).toBe(200);
    const node = execFileSync("node", ["--version"]).toString().trim().slice(1);
    const python = execFileSync("/usr/bin/python3", ["--version"]).toString().trim().replace("Python ", "");
    const list = z.array(RuntimeSchema).parse(res.body);
    // The spec's two first, then the other installed languages in the records' order
    // (languages.int.test.ts runs each one).
    expect(list.slice(0, 2)).toEqual([
      {
        language: "javascript",
        version: node,
        aliases: expect.arrayContaining(["js", "node-js"]),
        runtime: "node",
      },
      { language: "python", version: python, aliases: expect.arrayContaining(["py", "py3", "python3"]) },
    ]);
    const order: string[] = LANGUAGE_RECORDS.map((r) => r.id);
    const ids = list.map((r) => r.language);
    expect(ids).toEqual([...ids].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
    for (const runtime of list) expect(runtime.version).toMatch(/^\d+\.\d+\.\d+$/);
    const gcc = execFileSync("/usr/bin/gcc", ["-dumpfullversion"]).toString().trim();
    expect(list).toContainEqual({ language: "c", version: gcc, aliases: ["gcc"] });
    expect(list).toContainEqual(
      expect.objectContaining({
        language: "csharp",
        runtime: "mono",
        aliases: expect.arrayContaining(["c#", "cs"]),
      }),
    );
  });

  it("needs a signed-in user to run code", async () => {
    const res = await server.api.post("/api/v2/execute", js("1"));
    expect(res.status).toBe(401);
  });

  it("runs JavaScript on the machine's node with stdin and args, answering as Piston does", async () => {
    const res = await execute(
      js(
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{console.log(JSON.stringify(s), process.argv.slice(2).join('|')); console.error('warn')})",
        { stdin: "hello", args: ["a b", "$(id)"] },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      language: "javascript",
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
    });
    expect(res.body.run).toMatchObject({
      stdout: '"hello\\n" a b|$(id)\n',
      stderr: "warn\n",
      code: 0,
      signal: null,
      status: null,
      message: null,
      truncated: false,
    });
    const run = res.body.run as Record<string, unknown>;
    expect(run.output).toBe('"hello\\n" a b|$(id)\nwarn\n');
    expect(run.wall_time).toEqual(expect.any(Number));
    expect(run.cpu_time).toEqual(expect.any(Number));
  });

  it("runs Python by alias and version range; a failing program is still a 200 with status RE", async () => {
    const res = await execute({
      language: "py3",
      version: "3.x",
      files: [{ name: "main.py", content: "import sys\nprint(input() == '')\nsys.exit(3)" }],
    });
    expect(res.status).toBe(200);
    expect(res.body.language).toBe("python");
    expect(res.body.run).toMatchObject({ stdout: "True\n", code: 3, status: "RE", signal: null });
  });

  it("runs several files: the first one, importing the others", async () => {
    const res = await execute({
      language: "python",
      version: "*",
      files: [
        { name: "main.py", content: "import helper\nprint(helper.twice(21))" },
        { name: "helper.py", content: "def twice(n):\n  return n * 2" },
      ],
    });
    expect(res.body.run).toMatchObject({ stdout: "42\n", code: 0 });
  });

  it("writes files with folders in their names under the work folder, so the entry can require them", async () => {
    const res = await execute({
      language: "javascript",
      version: "*",
      files: [
        { name: "src/main.js", content: "console.log(require('./lib/util.js').twice(21), process.cwd())" },
        { name: "src/lib/util.js", content: "exports.twice = (n) => n * 2;" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.run).toMatchObject({ stdout: "42 /box\n", code: 0 });
    const python = await execute({
      language: "python",
      version: "*",
      files: [
        {
          name: "app/main.py",
          content: "import helper\nfrom pkg.deep import half\nprint(helper.twice(21), half(8))",
        },
        { name: "app/helper.py", content: "def twice(n):\n  return n * 2" },
        { name: "app/pkg/deep.py", content: "def half(n):\n  return n // 2" },
      ],
    });
    expect(python.body.run).toMatchObject({ stdout: "42 4\n", code: 0 });
  });

  it("refuses unknown runtimes and versions with Piston's message", async () => {
    expect((await execute(js("1", { language: "brainfuck" }))).body.message).toBe(
      "brainfuck-* runtime is unknown",
    );
    const res = await execute(js("1", { version: "18.x" }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("javascript-18.x runtime is unknown");
  });

  it("refuses limits over the configured maximum, negative or non-numeric, with Piston's messages", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ run_timeout: 10_001 }, "run_timeout cannot exceed the configured limit of 10000"],
      [{ compile_timeout: 20_000 }, "compile_timeout cannot exceed the configured limit of 10000"],
      [{ run_memory_limit: 2 ** 40 }, "run_memory_limit cannot exceed the configured limit of 268435456"],
      // As Piston with its positive default maxima: a negative wall clock or CPU time is refused.
      [{ run_timeout: -1 }, "run_timeout must be non-negative"],
      [{ compile_timeout: -1 }, "compile_timeout must be non-negative"],
      [{ run_cpu_time: -1 }, "run_cpu_time must be non-negative"],
      [{ compile_cpu_time: -5 }, "compile_cpu_time must be non-negative"],
      [{ run_cpu_time: "fast" }, "If specified, run_cpu_time must be a number"],
      // Bytes and milliseconds are whole numbers: a fraction is the client's mistake, not a 500.
      [{ run_memory_limit: 50_000_000.5 }, "If specified, run_memory_limit must be a whole number"],
      [{ run_timeout: 0.5 }, "If specified, run_timeout must be a whole number"],
    ];
    for (const [extra, message] of cases) {
      const res = await execute(js("1", extra));
      expect(res.status, message).toBe(400);
      expect(res.body.message).toBe(message);
    }
    // The spec's client sends both timeouts at 10000 ms: accepted.
    const ok = await execute(js("console.log(1)", { run_timeout: 10_000, compile_timeout: 10_000 }));
    expect(ok.body.run).toMatchObject({ stdout: "1\n" });
  });

  it("takes Piston's -1 memory limits as the server's maximum, as the published piston-client sends them", async () => {
    // piston-client 1.0.2's request, field for field, with its defaults.
    const res = await execute(
      js("console.log(process.argv.slice(2).join(','))", {
        stdin: "",
        args: ["1", "2", "3"],
        compile_timeout: 10_000,
        run_timeout: 3000,
        compile_memory_limit: -1,
        run_memory_limit: -1,
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.run).toMatchObject({ stdout: "1,2,3\n", code: 0 });
    // "No limit" is still the server's maximum: a program that needs more memory is stopped.
    const hog = await execute({
      language: "python",
      version: "*",
      files: [{ content: "a = []\nwhile True: a.append(bytearray(10**7))" }],
      run_memory_limit: -1,
    });
    expect(hog.status).toBe(200);
    expect(hog.body.run).toMatchObject({ status: "SG", message: "Memory limit exceeded" });
  });

  it("runs a request that omits every optional field, with Piston's defaults", async () => {
    const res = await execute({
      language: "py",
      version: "3.x",
      files: [{ content: "print(input() == '', 1)" }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ language: "python" });
    expect(res.body.run).toMatchObject({
      stdout: "True 1\n",
      stderr: "",
      code: 0,
      signal: null,
      status: null,
    });
  });

  it("refuses malformed requests with 400 before any sandbox work", async () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ version: "*", files: [{ content: "" }] }, /language is required/],
      [{ language: "js", files: [{ content: "" }] }, /version is required/],
      [{ language: "js", version: "*" }, /files is required as an array/],
      [js("", { files: [{ content: 5 }] }), /content is required as a string/],
      [js("", { files: [] }), /at least one file/],
      [js("", { files: [{ name: "../../etc/x", content: "" }] }), /relative path/],
      [js("", { files: [{ name: "src/../../x.js", content: "" }] }), /relative path/],
      [js("", { files: [{ name: "/etc/passwd", content: "" }] }), /relative path/],
      [js("", { files: [{ name: "src//a.js", content: "" }] }), /relative path/],
      [js("", { files: [{ name: "./a.js", content: "" }] }), /relative path/],
      [js("", { files: [{ name: "..", content: "" }] }), /relative path/],
      [js("", { files: [{ name: "a\0.js", content: "" }] }), /files.0.name may not contain the NUL/],
      [js("", { files: [{ name: `${"é".repeat(128)}.js`, content: "" }] }), /relative path/],
      [
        js("", {
          files: [
            { name: "src", content: "" },
            { name: "src/a.js", content: "" },
          ],
        }),
        /both a file and a folder: src/,
      ],
      [
        js("", { files: Array.from({ length: 17 }, (_, i) => ({ name: `f${i}.js`, content: "" })) }),
        /at most 16/,
      ],
      [
        js("", {
          files: [
            { name: "a.js", content: "" },
            { name: "a.js", content: "" },
          ],
        }),
        /unique/,
      ],
      [js("", { args: Array.from({ length: 65 }, () => "x") }), /at most 64/],
      [js("", { args: ["x".repeat(4097)] }), /at most 4096/],
      [js("", { args: [1] }), /array of strings/],
      [js("", { stdin: 5 }), /stdin must be a string/],
      [js("", { version: 5 }), /version is required as a string/],
    ];
    for (const [body, message] of bad) {
      const res = await execute(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(String(res.body.message)).toMatch(message);
    }
  });

  it("answers 415 for a body that is not JSON and 413 for one over the cap", async () => {
    const text = await server.api.call("POST", "/api/v2/execute", {
      token: user.token,
      body: "language=js",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(text.status).toBe(415);
    expect(text.body.message).toEqual(expect.any(String));
    const big = await execute(js("x".repeat(200 * 1024)));
    expect(big.status).toBe(413);
    expect(big.body.message).toBe("Request body is too large");
  });

  it("rate-limits runs per user with 429 and a message", async () => {
    const limited = await startTestServer("embedded", { RUN_RATE_MAX: "2" });
    try {
      const someone = await buildUser(limited.api);
      const other = await buildUser(limited.api);
      for (let i = 0; i < 2; i++) {
        expect((await limited.api.post("/api/v2/execute", js("1"), someone.token)).status).toBe(200);
      }
      const refused = await limited.api.post("/api/v2/execute", js("1"), someone.token);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/Too many runs/);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await limited.api.post("/api/v2/execute", js("1"), other.token)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it("kills a run whose client disconnects", async () => {
    const controller = new AbortController();
    const marker = `ensemble-disconnect-${Date.now()}`;
    const request = fetch(`${server.url}/api/v2/execute`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${user.token}` },
      body: JSON.stringify(js(`process.title = ${JSON.stringify(marker)}; setInterval(() => {}, 1000)`)),
      signal: controller.signal,
    }).catch(() => undefined);
    const state = await server.app.execution.service.sandbox();
    await waitUntil(() => runningIn(state?.uids ?? []) > 0);
    controller.abort();
    await request;
    // The queue frees the run's place when the sandbox's exit is reported, a moment after its
    // processes are gone.
    const { queue } = server.app.execution.service;
    await waitUntil(() => runningIn(state?.uids ?? []) === 0 && queue.running === 0);
    expect(queue.running).toBe(0);
  });
});

describe("without bubblewrap", () => {
  it("says so at start and answers 503 with a clear message, never running unsandboxed", async () => {
    const server = await startTestServer("embedded", { BWRAP_PATH: "/nonexistent/bwrap" });
    try {
      const user = await buildUser(server.api);
      const res = await server.api.post("/api/v2/execute", js("console.log(1)"), user.token);
      expect(res.status).toBe(503);
      expect(res.body.message).toMatch(/bubblewrap \(bwrap\) is not installed/);
      expect(server.logs.join("")).toMatch(/bubblewrap \(bwrap\) is not installed/);
      expect((await server.api.get("/api/v2/runtimes")).status).toBe(503);
    } finally {
      await server.close();
    }
  });
});

describe("with PISTON_URL", () => {
  it("forwards runs and the runtime list to that Piston server", async () => {
    const piston = await startFakePiston();
    const server = await startTestServer("embedded", { PISTON_URL: piston.url });
    try {
      const user = await buildUser(server.api);
      const runtimes = await server.api.get("/api/v2/runtimes");
      expect(runtimes.body).toEqual([
        expect.objectContaining({ language: "javascript", version: "18.15.0" }),
        expect.objectContaining({ language: "python", version: "3.10.0" }),
      ]);
      const res = await server.api.post(
        "/api/v2/execute",
        js("remote!", { version: "18.x", run_timeout: 3000 }),
        user.token,
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ language: "javascript", version: "18.15.0" });
      expect(res.body.run).toMatchObject({ stdout: "remote!", code: 0, status: null, signal: null });
      expect(piston.state.requests[0]).toMatchObject({
        language: "javascript",
        version: "18.x",
        run_timeout: 3000,
      });
      const unknown = await server.api.post("/api/v2/execute", js("", { language: "cobol" }), user.token);
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe("cobol-* runtime is unknown");
      piston.state.failWith = 500;
      const failed = await server.api.post("/api/v2/execute", js("x"), user.token);
      expect(failed.status).toBe(502);
      expect(failed.body.message).toBe("API responded with status: 500");
    } finally {
      await server.close();
      await piston.close();
    }
  });
});

/** Processes on the machine owned by the sandbox's slot uids. */
function runningIn(uids: number[]): number {
  const out = execFileSync("ps", ["-eo", "uid="]).toString();
  return out
    .split("\n")
    .map((l) => Number(l.trim()))
    .filter((uid) => uids.includes(uid)).length;
}

async function waitUntil(predicate: () => boolean, timeoutMs = 10_000) {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}
