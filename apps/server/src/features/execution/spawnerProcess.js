// The sandbox's spawner (see spawner.ts): a small Node process that starts the launchers, so
// that the server's own event loop never blocks in fork(). Forking copies the parent's page
// tables, which took 20 ms for a server of 400 MB (the embedded PostgreSQL) and takes ~2 ms
// here. Plain JavaScript, so it starts without the TypeScript loader.
//
// Messages from the server: {type: "spawn", id, file, args, env}. Answers: {type: "spawned",
// id, pid} then three {type: "stdio", id, fd} carrying the child's stdin, stdout and stderr as
// handles, then {type: "exit", id, code, signal}; or {type: "failed", id, message}.
import { spawn } from "node:child_process";

const children = new Set();

process.on("message", (message) => {
  if (message?.type !== "spawn") return;
  const { id, file, args, env } = message;
  const child = spawn(file, args, { stdio: ["pipe", "pipe", "pipe"], detached: true, env });
  if (child.pid === undefined) {
    child.on("error", (error) => process.send({ type: "failed", id, message: error.message }));
    return;
  }
  children.add(child);
  process.send({ type: "spawned", id, pid: child.pid });
  for (const [fd, stream] of [child.stdin, child.stdout, child.stderr].entries()) {
    process.send({ type: "stdio", id, fd }, stream);
  }
  child.on("exit", (code, signal) => {
    children.delete(child);
    process.send({ type: "exit", id, code, signal });
  });
});

// The server is gone: nothing it started may outlive it.
process.on("disconnect", () => {
  for (const child of children) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  process.exit(0);
});
