/**
 * Shared language server benchmark (see README.md): one session's C file through the
 * production server's socket, as a browser asks. Measures the cold start to the first
 * diagnostics, the completion round trip (BENCH_COMPLETIONS requests, BENCH_GAP_MS apart) and
 * the language server's resident memory idle and after the completions. The server runs
 * BENCH_CLANGD (Debian's clangd by default). Writes RESULTS.md beside this file (or BENCH_OUT).
 */
import { existsSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Ack, textDigest } from "@ensemble/protocol";
import { joinSession, ourSocket } from "../collab/ourSocket";
import { processTree, rssBytes } from "../lib/processes";
import { BENCH_LIMITS_ENV, requireBuild, startServer } from "../lib/server";
import { quantile } from "../lib/stats";

const env = process.env;
const outDir = env.BENCH_OUT ?? import.meta.dirname;
const BINARY = env.BENCH_CLANGD ?? "/usr/bin/clangd";
const COMPLETIONS = Number(env.BENCH_COMPLETIONS ?? 50);
const GAP_MS = Number(env.BENCH_GAP_MS ?? 50);
const PORT = Number(env.BENCH_PORT ?? 3290);

const PATH = "src/bench.c";
const CODE = `#include <stdio.h>
#include <string.h>

struct point { int xcoord; int ycoord; };

static int distance(struct point a, struct point b) { return (a.xcoord - b.xcoord) + (a.ycoord - b.ycoord); }

int main(void) {
  struct point p = { 1, 2 };
  printf("%d\\n", distance(p, p) + undeclared_value);
  p.
  return 0;
}
`;
/** After "p." on line 11 (zero-based 10). */
const MEMBER_POSITION = { line: 10, character: 4 };

if (!existsSync(BINARY)) throw new Error(`${BINARY} is not installed (BENCH_CLANGD names another)`);
requireBuild();
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-bench-lsp-"));
const server = await startServer({
  port: PORT,
  env: { ...BENCH_LIMITS_ENV, DATA_DIR: dataDir, CLANGD_PATH: BINARY },
});
const url = server.url;

/** The language server's processes: those below our server whose command line names the binary. */
function serverRss(): number {
  const name = path.basename(BINARY);
  return processTree(server.pid)
    .filter((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
        return cmdline[0] !== "/usr/bin/bwrap" && cmdline.some((arg) => arg.endsWith(name));
      } catch {
        return false;
      }
    })
    .reduce((sum, pid) => sum + rssBytes(pid), 0);
}

async function post(pathname: string, body: unknown, token?: string) {
  const response = await fetch(`${url}${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

try {
  const name = `bench_${Date.now().toString(36)}`;
  const user = await post("/api/auth/register", {
    name,
    email: `${name}@example.test`,
    password: "pa55word!",
  });
  const token = String(user.token);
  const session = await post("/api/session/create", { title: "clangd bench" }, token);
  const sessionId = String(session.session_id);
  const socket = ourSocket(url, token);
  await joinSession(socket, sessionId);
  const created: Ack<unknown> = await socket.emitWithAck("createFile", {
    sessionId,
    path: PATH,
    kind: "file",
    content: CODE,
  });
  if (!created.ok) throw new Error(`createFile: ${created.error.message}`);

  const started = performance.now();
  const firstDiagnostics = new Promise<number>((resolve) =>
    socket.on("lspDiagnostics", (payload: { files: { path: string; diagnostics: unknown[] }[] }) => {
      if (payload.files.some((f) => f.path === PATH && f.diagnostics.length > 0))
        resolve(performance.now() - started);
    }),
  );
  const opened: Ack<unknown> = await socket
    .timeout(60_000)
    .emitWithAck("lspOpen", { sessionId, server: "clangd" });
  if (!opened.ok) throw new Error(`lspOpen: ${opened.error.message}`);
  const openMs = performance.now() - started;
  const diagnosticsMs = await firstDiagnostics;
  await new Promise((r) => setTimeout(r, 1000));
  const idleRss = serverRss();

  const digest = textDigest(CODE);
  const times: number[] = [];
  let items = 0;
  for (let i = 0; i < COMPLETIONS; i += 1) {
    const asked = performance.now();
    const answer: Ack<{ stale: boolean; result?: { items: unknown[] } }> = await socket
      .timeout(30_000)
      .emitWithAck("lspCompletion", { sessionId, path: PATH, digest, position: MEMBER_POSITION });
    times.push(performance.now() - asked);
    if (!answer.ok || answer.data.stale) throw new Error(`completion ${i}: ${JSON.stringify(answer)}`);
    items = answer.data.result?.items.length ?? 0;
    await new Promise((r) => setTimeout(r, GAP_MS));
  }
  const afterRss = serverRss();
  socket.close();

  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  const fmt = (v: number) => `${v.toFixed(1)} ms`;
  const isStandIn = BINARY.endsWith(".mjs");
  const version = isStandIn ? "the tests' LSP stand-in" : path.basename(BINARY);
  const load = os.loadavg()[0]?.toFixed(1) ?? "?";
  const standIn = isStandIn
    ? "\nclangd was not installed on this machine: these figures are the stand-in's\n(`apps/server/test/fakeLanguageServer.mjs`, a Node LSP server in the same sandbox), so they\nmeasure our path (socket, feed, sandbox, LSP framing), not clangd's own work.\n"
    : "";
  const report = `# Shared language server (${version})

Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (load average ${load}) by
\`npm run bench:lsp -w bench\` (\`bench/languageServers/run.ts\`): one session, a
${CODE.split("\n").length}-line C file including two system headers, through the production
server's socket. The server runs at a lower CPU weight than everything else, so a loaded
machine stretches the cold start most.
${standIn}
| what | value |
|---|---|
| \`lspOpen\` answered (server started, file fed) | ${fmt(openMs)} |
| cold start to first diagnostics | ${fmt(diagnosticsMs)} |
| completion round trip p50 (${COMPLETIONS} requests, ${GAP_MS} ms apart, ${items} items each) | ${fmt(quantile(times, 0.5))} |
| completion round trip p99 | ${fmt(quantile(times, 0.99))} |
| server RSS idle (after the first diagnostics) | ${mib(idleRss)} |
| server RSS after the completions | ${mib(afterRss)} |
`;
  await fs.writeFile(path.join(outDir, "RESULTS.md"), report);
  process.stdout.write(report);
} finally {
  await server.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
}
