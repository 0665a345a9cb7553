import { EXECUTION_LIMITS } from "@ensemble/protocol";
import type { SingleFlight } from "../../cluster/flights";
import type { Db } from "../../db/index";
import type { Logger } from "../../logger";
import type { SocketEvents } from "../../realtime/handle";
import { sessionRoom } from "../../realtime/session";
import type { EditorServer } from "../../realtime/socket";
import type { WorkspaceReader } from "../collab/index";
import type { ExecutionService } from "../execution/index";
import type { SessionService } from "../sessions/index";
import { createTerminalRepo } from "./repo";
import { createTerminalService } from "./service";
import { registerTerminalEvents } from "./socket";

export type { CommandContext, CommandDefinition, CommandRegistry, Runner } from "./commands";
export type { TerminalService } from "./service";

export interface TerminalFeatureDeps {
  io: EditorServer;
  events: SocketEvents;
  db: Db;
  execution: ExecutionService;
  sessions: SessionService;
  /** The session's live files: what Run Code runs. */
  workspace: WorkspaceReader;
  logger: Logger;
  /** Wall clock of a terminal run (RUN_LIVE_TIMEOUT_MS). */
  liveTimeoutMs: number;
  /** One run per session across the cluster's nodes. */
  flights?: SingleFlight;
}

/**
 * Wires the shared terminal: Run Code and terminal commands over the session's socket room.
 * Other features add their commands with `commands.register`.
 */
export function createTerminalFeature({
  io,
  events,
  db,
  execution,
  sessions,
  workspace,
  logger,
  liveTimeoutMs,
  flights,
}: TerminalFeatureDeps) {
  const repo = createTerminalRepo(db, {
    entries: EXECUTION_LIMITS.terminalHistoryEntries,
    bytes: EXECUTION_LIMITS.terminalHistoryBytes,
  });
  const service = createTerminalService({
    repo,
    execution,
    sessions,
    workspace,
    broadcast: {
      update: (sessionId, entries) =>
        io
          .to(sessionRoom(sessionId))
          .emit(
            "terminalUpdate",
            entries.length === 1 ? { sessionId, entry: entries[0] } : { sessionId, entries },
          ),
      result: (sessionId, terminalEntries) =>
        io.to(sessionRoom(sessionId)).emit("executionResult", { sessionId, terminalEntries }),
      runState: (state) => io.to(sessionRoom(state.sessionId)).emit("runStateUpdate", state),
      diagnostics: (state) => io.to(sessionRoom(state.sessionId)).emit("runDiagnostics", state),
    },
    logger,
    liveTimeoutMs,
    flights,
  });
  registerTerminalEvents(events, service);
  return { service, commands: service.commands };
}
