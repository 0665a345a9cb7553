import { Writable } from "node:stream";
import { createLogger } from "../../logger";
import type { Runner } from "./commands";

// What the terminal's tests share: who runs, and a logger that keeps quiet.

/** An editor who runs code in the terminal's tests. */
export const ADA: Runner = {
  id: "ada",
  name: "Ada",
  userId: "ada",
  role: "editor",
  isHost: false,
  canEdit: true,
  rateKey: "user:ada",
};

/** A logger that writes nothing. */
export const quietLogger = () =>
  createLogger("fatal", new Writable({ write: (_chunk, _encoding, done) => done() }));
