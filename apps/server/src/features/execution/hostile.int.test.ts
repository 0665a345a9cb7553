import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltUser, buildUser, startTestServer, type TestServer } from "../../../test/harness";
import { hostileHarness, noneLeft, type Run } from "./hostileHarness";

const SECRET = "test-secret-that-is-long-enough-0123456789";

/** Hostile programs against the real sandbox, each beside a canary run and health probes (hostileHarness.ts). */
describe("hostile programs in the sandbox", () => {
  let server: TestServer;
  let user: BuiltUser;
  let uids: number[];
  let dataDir: string;

  const { hostile, execute } = hostileHarness(
    () => server,
    () => user,
    () => uids,
  );

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-hostile-"));
    await fs.writeFile(path.join(dataDir, "jwt-secret"), SECRET);
    server = await startTestServer("embedded", { RUN_RATE_MAX: "100000", DATA_DIR: dataDir });
    user = await buildUser(server.api);
    uids = (await server.app.execution.service.sandbox())?.uids ?? [];
    expect(uids.length).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await server.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("busy loop: killed at the wall clock (TO, SIGKILL)", async () => {
    for (const [language, code] of [
      ["python", "while True: pass"],
      ["javascript", "for (;;) {}"],
    ] as const) {
      const run = await hostile(language, code, { run_timeout: 1500 });
      expect(run).toMatchObject({ status: "TO", signal: "SIGKILL", code: null });
      expect(run.wall_time).toBeGreaterThanOrEqual(1500);
    }
  });

  it("loop printing forever: stopped at the 64 KiB cap (OL), the prefix kept", async () => {
    for (const [language, code] of [
      ["python", "while True: print('x' * 100)"],
      ["javascript", "for (;;) console.log('y'.repeat(100))"],
    ] as const) {
      const run = await hostile(language, code);
      expect(run).toMatchObject({ status: "OL", signal: "SIGKILL", code: null, truncated: true });
      expect(Buffer.byteLength(run.stdout)).toBe(64 * 1024);
    }
    const errors = await hostile("python", "import sys\nwhile True: sys.stderr.write('e' * 100)");
    expect(errors).toMatchObject({ status: "EL", truncated: true });
  });

  it("one huge write: the server never holds more than the cap", async () => {
    const python = await hostile("python", "print('x' * 10**9)");
    expect(["SG", "OL"]).toContain(python.status);
    expect(Buffer.byteLength(python.stdout)).toBeLessThanOrEqual(64 * 1024);
    const js = await hostile("javascript", "process.stdout.write('z'.repeat(3e8))");
    expect(["SG", "OL"]).toContain(js.status);
    expect(Buffer.byteLength(js.stdout)).toBeLessThanOrEqual(64 * 1024);
  });

  it("fork bomb: forks fail, the run ends, nothing is left", async () => {
    const python = await hostile(
      "python",
      "import os\nn = 0\ntry:\n  while True:\n    if os.fork() == 0:\n      import time; time.sleep(30)\n    n += 1\nexcept OSError as e:\n  print('stopped after', n, e.errno)",
      { run_timeout: 3000 },
    );
    expect(python.stdout).toMatch(/^stopped after \d+ 11/);
    const shell = await hostile(
      "python",
      "import subprocess\nsubprocess.run(['sh', '-c', ':(){ :|:& };:'])",
      {
        run_timeout: 2000,
      },
    );
    expect(shell.status === "TO" || shell.code === 0).toBe(true);
    const js = await hostile(
      "javascript",
      "const { spawn } = require('child_process'); let n = 0; const go = () => { try { spawn('sleep', ['30']).on('error', () => {}); n++; setImmediate(go); } catch (e) { console.log('stopped', n, e.code); process.exit(0); } }; go();",
      { run_timeout: 3000 },
    );
    expect(["TO", "RE", null]).toContain(js.status);
  });

  it("thread bomb: thread creation fails, nothing is left", async () => {
    const python = await hostile(
      "python",
      "import threading, time\nn = 0\ntry:\n  while True:\n    threading.Thread(target=time.sleep, args=(30,), daemon=True).start(); n += 1\nexcept RuntimeError as e:\n  print('stopped after', n)",
      { run_timeout: 3000 },
    );
    expect(python.stdout).toMatch(/^stopped after \d+/);
    const js = await hostile(
      "javascript",
      "const { Worker } = require('worker_threads'); for (let i = 0; i < 1000; i++) new Worker('setInterval(() => {}, 1000)', { eval: true }).on('error', () => {});",
      { run_timeout: 3000 },
    );
    expect(js.status).not.toBeNull();
  });

  it("memory bomb: killed at the memory limit (SG, 'Memory limit exceeded')", async () => {
    const python = await hostile("python", "a = []\nwhile True: a.append(bytearray(10**7))");
    expect(python).toMatchObject({ status: "SG", signal: "SIGKILL", message: "Memory limit exceeded" });
    const buffers = await hostile("javascript", "const a = []; for (;;) a.push(Buffer.alloc(1e7, 1));");
    expect(buffers).toMatchObject({ status: "SG", message: "Memory limit exceeded" });
    const heap = await hostile("javascript", "const a = []; for (;;) a.push(new Array(1e6).fill(1.5));");
    expect(heap.status).toBe("SG");
  });

  it("filling the disk and /dev/shm: ENOSPC or EFBIG inside, nothing persists to the next run", async () => {
    const fill = (target: string) =>
      `import os\ntry:\n  with open('${target}', 'wb') as f:\n    for _ in range(200): f.write(b'x' * 10**6); f.flush()\nexcept OSError as e:\n  print('${target}', e.errno)`;
    for (const target of ["/box/big", "/tmp/big", "/dev/shm/big"]) {
      const run = await hostile("python", fill(target));
      // ENOSPC (28) when the tmpfs is full, EFBIG (27) at RLIMIT_FSIZE.
      expect(run.stdout).toMatch(new RegExp(`^${target} (27|28)\\n$`));
    }
    const ro = await hostile(
      "python",
      "for p in ['/x', '/usr/x', '/dev/x']:\n  try: open(p, 'w')\n  except OSError as e: print(p, e.errno)",
    );
    expect(ro.stdout).toBe("/x 30\n/usr/x 30\n/dev/x 30\n");
    const after = await hostile(
      "python",
      "import os\nprint(sorted(os.listdir('/tmp')), sorted(os.listdir('/dev/shm')), sorted(os.listdir('.')))",
    );
    expect(after.stdout).toBe("[] [] ['main.py']\n");
  });

  it("reading /etc/shadow, the server's data folder, its source and its environment: not there", async () => {
    const source = path.resolve("apps/server/src/app.ts");
    const paths = [
      "/etc/shadow",
      "/etc/passwd",
      path.join(dataDir, "jwt-secret"),
      source,
      "/root/.ssh/id_rsa",
    ];
    const run = await hostile(
      "python",
      `import os\nfor p in ${JSON.stringify(paths)}:\n  try:\n    open(p).read(); print('READ', p)\n  except OSError as e: print(e.errno)\nprint(sorted(os.environ))\nprint(open('/proc/1/environ','rb').read())\nprint(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))\ntry: open('/proc/${process.pid}/environ')\nexcept OSError as e: print('server', e.errno)`,
    );
    expect(run.stdout).not.toContain("READ");
    expect(run.stdout).not.toContain(SECRET);
    const lines = run.stdout.split("\n");
    expect(lines.slice(0, 5)).toEqual(["2", "2", "2", "2", "2"]);
    expect(lines[5]).toBe("['HOME', 'LANG', 'PATH', 'PWD']");
    expect(lines[7]).toBe("[1, 2]");
    expect(lines[8]).toBe("server 2");
    const js = await hostile("javascript", "console.log(JSON.stringify(process.env))");
    expect(JSON.parse(js.stdout)).toEqual({
      PATH: "/usr/bin:/bin",
      HOME: "/tmp",
      LANG: "C.UTF-8",
      PWD: "/box",
    });
  });

  it("the network: the server's own port is unreachable and names do not resolve", async () => {
    const port = new URL(server.url).port;
    const python = await hostile(
      "python",
      `import socket\ntry: socket.create_connection(('127.0.0.1', ${port}), timeout=2); print('CONNECTED')\nexcept OSError as e: print('tcp', e.errno)\ntry: socket.getaddrinfo('example.com', 80); print('RESOLVED')\nexcept OSError as e: print('dns', type(e).__name__)\ntry: socket.create_connection(('169.254.169.254', 80), timeout=2)\nexcept OSError as e: print('metadata', e.errno)`,
    );
    // ENETUNREACH (101): the namespace's loopback is down; ECONNREFUSED (111) would do too.
    expect(python.stdout).toMatch(/^tcp (101|111)\ndns gaierror\nmetadata (101|111)\n$/);
    const js = await hostile(
      "javascript",
      `require('net').connect(${port}, '127.0.0.1').on('error', (e) => console.log(e.code)); require('dns').lookup('example.com', (e) => console.log(e && e.code));`,
    );
    expect(js.stdout).toMatch(/ENETUNREACH|ECONNREFUSED/);
    expect(js.stdout).toMatch(/ENOTFOUND|EAI_AGAIN/);
  });

  it("children that outlive the program or ignore signals: all killed", async () => {
    const early = await hostile(
      "python",
      "import subprocess, os\nsubprocess.Popen(['sleep', '1000'])\nsubprocess.Popen(['setsid', 'sleep', '1000'])\nsubprocess.Popen(['sh', '-c', 'nohup sleep 1000 &'])\nprint('main done')",
    );
    expect(early).toMatchObject({ stdout: "main done\n", code: 0 });
    expect(early.wall_time).toBeLessThan(1000);
    const detached = await hostile(
      "javascript",
      "require('child_process').spawn('sleep', ['1000'], { detached: true, stdio: 'ignore' }).unref(); console.log('bye')",
    );
    expect(detached).toMatchObject({ stdout: "bye\n", code: 0 });
    const stubborn = await hostile(
      "python",
      "import signal, subprocess\nfor s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP): signal.signal(s, signal.SIG_IGN)\nsubprocess.Popen(['sh', '-c', \"trap '' TERM HUP INT; while :; do :; done\"])\nwhile True: pass",
      { run_timeout: 1500 },
    );
    expect(stubborn).toMatchObject({ status: "TO", signal: "SIGKILL" });
  });

  it("reading stdin forever: EOF after the given stdin", async () => {
    const python = await hostile(
      "python",
      "n = 0\ntry:\n  while True: input(); n += 1\nexcept EOFError: print('eof after', n)",
      {
        stdin: "a\nb",
      },
    );
    expect(python).toMatchObject({ stdout: "eof after 2\n", code: 0 });
    const js = await hostile(
      "javascript",
      "let n = 0; process.stdin.on('data', (d) => (n += d.length)).on('end', () => console.log('end', n));",
      {
        stdin: "x".repeat(50_000),
      },
    );
    expect(js.stdout).toBe("end 50001\n");
    // The program exits without reading a large stdin: the server's write hits a closed pipe.
    const unread = await hostile("python", "print('not reading')", { stdin: "y".repeat(90_000) });
    expect(unread).toMatchObject({ stdout: "not reading\n", code: 0 });
  });

  it("invalid UTF-8, NUL and escape sequences: valid JSON, U+FFFD for bad bytes, characters never split", async () => {
    const run = await hostile(
      "python",
      "import sys, time\nout = sys.stdout.buffer\nout.write(b'\\xff\\xfe bad \\x00 nul \\x1b[2J\\x1b]52;c;aGk=\\x07 ')\nsnow = '\\u2603'.encode()\nfor _ in range(500):\n  out.write(snow[:1]); out.flush(); out.write(snow[1:]); out.flush()\nout.write(b'\\xe2\\x98')",
    );
    expect(run.stdout.startsWith("\ufffd\ufffd bad \u0000 nul \u001b[2J\u001b]52;c;aGk=\u0007 ")).toBe(true);
    expect(run.stdout).toContain("\u2603".repeat(500));
    expect(run.stdout.endsWith("\ufffd")).toBe(true);
    const js = await hostile("javascript", "console.log('\\ud800 lone surrogate')");
    expect(js.stdout).toBe("\ufffd lone surrogate\n");
  });

  it("a 50 MB request: 413 before any sandbox work", async () => {
    const res = await server.api.call("POST", "/api/v2/execute", {
      token: user.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        language: "python",
        version: "*",
        files: [{ content: "x".repeat(50 * 1024 * 1024) }],
      }),
    });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe("Request body is too large");
    expect(server.app.execution.service.queue.running).toBe(0);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it("100 simultaneous runs: the slots run, the line waits, the rest get 429 with a message", async () => {
    const { concurrency, maxQueued } = server.app.execution.service.queue;
    // Each run lasts long enough that all 100 requests arrive before a slot frees up, even on
    // a busy machine (with 0.5 s, a slow arrival was once admitted into a freed place).
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => execute("python", `import time\ntime.sleep(1.5)\nprint(${i})`)),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(ok.length + refused.length).toBe(100);
    expect(ok.length).toBe(concurrency + maxQueued);
    for (const r of refused)
      expect(r.body.message).toBe("The code runner is busy. Try again in a few seconds.");
    for (const r of ok) expect((r.body.run as Run).stdout).toMatch(/^\d+\n$/);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    await noneLeft(uids);
  });
});
