import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import type http from "node:http";
import path from "node:path";

// The fake's own git runs must not read the machine's or the user's git config (hooks, helpers, signing).
const ISOLATED_GIT_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_COMMITTER_NAME: "GitHub",
  GIT_COMMITTER_EMAIL: "noreply@github.example.test",
};

/** Runs the system git without a shell and resolves with its stdout; rejects with its stderr on failure. */
export function runGit(
  args: string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { env: { ...ISOLATED_GIT_ENV, ...options.env } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString());
      else reject(new Error(`git ${args.join(" ")} exited ${code}: ${Buffer.concat(err).toString().trim()}`));
    });
    // Commands that take no input may exit before reading it; that EPIPE is expected.
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
  });
}

/**
 * Commits `files` (a null content deletes the path) on top of `branch` in a bare repository,
 * creating the branch if it is missing, and returns the new commit's sha. It never touches a
 * work tree: blobs go through a throwaway index, and the ref moves only if nobody moved it meanwhile.
 */
export async function commitFiles(
  gitDir: string,
  branch: string,
  files: Record<string, string | null>,
  message: string,
  author = { name: "Someone Else", email: "someone@example.test" },
): Promise<string> {
  const ref = `refs/heads/${branch}`;
  const indexFile = path.join(gitDir, `fake-index-${randomBytes(6).toString("hex")}`);
  const env = { GIT_INDEX_FILE: indexFile, GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email };
  const git = (args: string[], input?: string) => runGit(["--git-dir", gitDir, ...args], { env, input });
  try {
    const parent = await git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]).then(
      (sha) => sha.trim(),
      () => undefined,
    );
    if (parent) await git(["read-tree", parent]);
    const lines: string[] = [];
    for (const [file, content] of Object.entries(files)) {
      if (content === null) lines.push(`0 ${"0".repeat(40)}\t${file}`);
      else lines.push(`100644 ${(await git(["hash-object", "-w", "--stdin"], content)).trim()}\t${file}`);
    }
    if (lines.length > 0) await git(["update-index", "--add", "--index-info"], `${lines.join("\n")}\n`);
    const tree = (await git(["write-tree"])).trim();
    const commit = (
      await git(["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", message])
    ).trim();
    await git(["update-ref", ref, commit, parent ?? "0".repeat(40)]);
    return commit;
  } finally {
    await fs.rm(indexFile, { force: true });
  }
}

/**
 * Hands one smart-HTTP request to the system `git http-backend` (CGI) and streams its answer back.
 * `remoteUser` is who authenticated; http-backend accepts pushes only when it is set.
 */
export function serveGitHttp(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  cgi: { projectRoot: string; pathInfo: string; query: string; remoteUser: string },
): void {
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === "string" ? value : undefined;
  };
  const env: Record<string, string> = {
    ...ISOLATED_GIT_ENV,
    GIT_PROJECT_ROOT: cgi.projectRoot,
    GIT_HTTP_EXPORT_ALL: "1",
    PATH_INFO: cgi.pathInfo,
    REQUEST_METHOD: req.method ?? "GET",
    QUERY_STRING: cgi.query,
    REMOTE_USER: cgi.remoteUser,
    REMOTE_ADDR: req.socket.remoteAddress ?? "127.0.0.1",
  };
  const optional = {
    CONTENT_TYPE: header("content-type"),
    // Absent when git sends a chunked body; http-backend then reads to the end of its stdin.
    CONTENT_LENGTH: header("content-length"),
    HTTP_CONTENT_ENCODING: header("content-encoding"),
    HTTP_GIT_PROTOCOL: header("git-protocol"),
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) env[key] = value;

  const child = spawn("git", ["http-backend"], { env });
  // http-backend may answer (and exit) before reading a refused body; that EPIPE is expected.
  child.stdin.on("error", () => {});
  req.pipe(child.stdin);
  const stderr: Buffer[] = [];
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));

  let head = Buffer.alloc(0);
  let headersSent = false;
  child.stdout.on("data", (chunk: Buffer) => {
    if (headersSent) return void res.write(chunk);
    head = Buffer.concat([head, chunk]);
    const crlf = head.indexOf("\r\n\r\n");
    const lf = head.indexOf("\n\n");
    const end = crlf >= 0 ? crlf : lf;
    if (end < 0) return;
    const { status, headers } = parseCgiHeaders(head.subarray(0, end).toString());
    res.writeHead(status, headers);
    headersSent = true;
    res.write(head.subarray(end + (crlf >= 0 ? 4 : 2)));
  });
  child.on("error", (error) => {
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end(`git http-backend failed to start: ${error.message}\n`);
  });
  child.on("close", (code) => {
    if (headersSent) return void res.end();
    res.writeHead(500, { "content-type": "text/plain" });
    res.end(`git http-backend exited ${code}: ${Buffer.concat(stderr).toString()}\n`);
  });
}

function parseCgiHeaders(text: string): { status: number; headers: Record<string, string> } {
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === "status") status = Number.parseInt(value, 10) || 500;
    else headers[name] = value;
  }
  return { status, headers };
}
