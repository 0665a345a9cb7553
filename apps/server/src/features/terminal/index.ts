import { EXECUTION_LIMITS } from "@ensemble/protocol";
import type { Db } from "../../db/index";
import type { Logger } from "../../logger";
import type { EditorServer } from "../../realtime/socket";
import type { RoomRegistry } from "../collab/rooms";
import { sessionRoom } from "../collab/socket";
import type { ExecutionService } from "../execution/index";
import type { SessionService } from "../sessions/index";
import { createTerminalRepo } from "./repo";
import { createTerminalService } from "./service";
import { registerTerminalSocket } from "./socket";

export interface TerminalFeatureDeps {
  io: EditorServer;
  db: Db;
  execution: ExecutionService;
  sessions: SessionService;
  rooms: RoomRegistry;
  logger: Logger;
}

/** Wires the shared terminal: Run Code and terminal commands over the session's socket room. */
export function createTerminalFeature({ io, db, execution, sessions, rooms, logger }: TerminalFeatureDeps) {
  const repo = createTerminalRepo(db, {
    entries: EXECUTION_LIMITS.terminalHistoryEntries,
    bytes: EXECUTION_LIMITS.terminalHistoryBytes,
  });
  const service = createTerminalService({
    repo,
    execution,
    sessions,
    // The code that runs is the session's live document, not text a client sends: what
    // everyone sees is what runs.
    liveText: (sessionId, file) => rooms.loaded(sessionId)?.doc.getText(file).toString(),
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
    },
    logger,
  });
  io.on("connection", (socket) => registerTerminalSocket(socket, service, logger));
  return { service };
}
