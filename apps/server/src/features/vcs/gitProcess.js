// Runs git for the server (see git.ts): a small Node process, so starting git copies this
// process's page tables (~2 ms) instead of the server's (~10 ms for a 500 MB server with the
// embedded PostgreSQL, its event loop waiting meanwhile). Plain JavaScript, so it starts
// without the TypeScript loader.
//
// Messages from the server: {id, args, cwd, env, timeoutMs}. Answers: {id, stdout, stderr,
// failure: null | {code, killed, message}}.
import { execFile } from "node:child_process";

process.on("message", ({ id, args, cwd, env, timeoutMs }) => {
  execFile(
    "git",
    args,
    { cwd, env, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 },
    (error, stdout, stderr) => {
      const failure = error
        ? { code: error.code ?? null, killed: Boolean(error.killed), message: error.message }
        : null;
      process.send({ id, stdout, stderr, failure });
    },
  );
});
// The server is gone: so is its helper.
process.on("disconnect", () => process.exit(0));
