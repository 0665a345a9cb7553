import type { Logger } from "../../logger";
import { handle, SocketEventError } from "../../realtime/handle";
import { requireCan, requireJoined, roleCan } from "../../realtime/session";
import type { EditorSocket } from "../../realtime/socket";
import { RunAbortedError } from "../execution/index";
import { RunControlError } from "./liveRuns";
import { ReadOnlyCommandError, RunInProgressError, type TerminalService } from "./service";

/** The socket code of each refusal of a line, Ctrl+D, Stop or an access change. */
const CONTROL_CODES = {
  not_running: "conflict",
  closed: "conflict",
  forbidden: "forbidden",
  limit: "limit",
} as const;

/**
 * The terminal's events on one socket. Only a socket that joined the session may run its
 * code or read its terminal; runs this socket started are cancelled when it disconnects.
 * Entries reach this socket as they reach everyone (room broadcasts), never in an ack.
 */
export function registerTerminalSocket(socket: EditorSocket, terminal: TerminalService, logger: Logger) {
  const mine = new Set<AbortController>();
  const identity = socket.data.identity;

  const runner = (signal: AbortSignal) => ({
    id: identity.id,
    name: identity.name,
    userId: identity.kind === "user" ? identity.id : undefined,
    // Read per call: the role is the one the session has now.
    isHost: socket.data.session?.isHost ?? false,
    canEdit: roleCan(socket.data.session?.role ?? "viewer", "edit"),
    // Guests share their address's budget; users have their own.
    rateKey: identity.kind === "user" ? `user:${identity.id}` : `guest:${socket.handshake.address}`,
    signal,
  });

  async function cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    mine.add(controller);
    try {
      return await work(controller.signal);
    } catch (error) {
      if (error instanceof RunInProgressError) throw new SocketEventError("run_in_progress", error.message);
      if (error instanceof RunAbortedError) throw new SocketEventError("cancelled", error.message);
      if (error instanceof ReadOnlyCommandError) throw new SocketEventError("read_only", error.message);
      throw error;
    } finally {
      mine.delete(controller);
    }
  }

  handle(socket, "runCode", logger, async ({ sessionId, file, stdin, args }) => {
    requireCan(socket, sessionId, "edit");
    return cancellable(async (signal) => {
      const { response, entries } = await terminal.runCode(sessionId, runner(signal), { file, stdin, args });
      // Everyone, this socket included, was shown why in the terminal.
      if (!response)
        throw new SocketEventError("execution_failed", entries[0]?.content ?? "Execution failed");
      return { language: response.language, version: response.version, run: response.run };
    });
  });

  handle(socket, "terminalCommand", logger, async ({ sessionId, command, file, github }) => {
    requireJoined(socket, sessionId);
    await cancellable((signal) => terminal.command(sessionId, runner(signal), command, file, github));
    return null;
  });

  handle(socket, "getTerminalHistory", logger, async (sessionId) => {
    requireJoined(socket, sessionId);
    socket.emit("terminalHistory", { sessionId, history: await terminal.history(sessionId) });
    socket.emit("runStateUpdate", terminal.runState(sessionId));
    return undefined;
  });

  /** A control of the run in flight, by an editor (a viewer changes nothing), its refusals mapped. */
  const control =
    <P extends { sessionId: string }>(work: (payload: P, who: ReturnType<typeof runner>) => unknown) =>
    async (payload: P) => {
      requireCan(socket, payload.sessionId, "edit");
      try {
        await work(payload, runner(new AbortController().signal));
      } catch (error) {
        if (error instanceof RunControlError)
          throw new SocketEventError(CONTROL_CODES[error.kind], error.message);
        throw error;
      }
      return null;
    };

  handle(
    socket,
    "runInput",
    logger,
    control(({ sessionId, line }, who) => terminal.input(sessionId, who, line)),
  );
  handle(
    socket,
    "closeRunInput",
    logger,
    control(({ sessionId }, who) => terminal.closeInput(sessionId, who)),
  );
  handle(
    socket,
    "stopRun",
    logger,
    control(({ sessionId }, who) => terminal.stop(sessionId, who)),
  );
  handle(
    socket,
    "setRunInputAccess",
    logger,
    control(({ sessionId, othersMayType }, who) => terminal.setInputAccess(sessionId, who, othersMayType)),
  );

  socket.on("disconnect", () => {
    for (const controller of mine) controller.abort();
  });
}
