import { SocketEventError, type SocketEvents } from "../../realtime/handle";
import { actorOf } from "../../realtime/presence";
import { requireCan, requireJoined } from "../../realtime/session";
import type { EditorSocket } from "../../realtime/socket";
import { RunAbortedError } from "../execution/index";
import type { Runner } from "./commands";
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
 * The terminal's events. Only a socket that joined the session may run its code or read its
 * terminal; what a socket is waiting for is cancelled when it disconnects (a live run itself
 * belongs to the session). Entries reach a socket as they reach everyone (room broadcasts),
 * never in an ack.
 */
export function registerTerminalEvents(events: SocketEvents, terminal: TerminalService) {
  /** What each socket waits for now, cancelled when it disconnects. */
  const pending = new WeakMap<EditorSocket, Set<AbortController>>();
  events.onDisconnect((socket) => {
    for (const controller of pending.get(socket) ?? []) controller.abort();
  });

  // Read per call: the role is the one the session has now.
  const runner = (socket: EditorSocket, sessionId: string, signal: AbortSignal): Runner => ({
    ...actorOf(socket, sessionId),
    signal,
  });

  async function cancellable<T>(socket: EditorSocket, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    let mine = pending.get(socket);
    if (!mine) {
      mine = new Set();
      pending.set(socket, mine);
    }
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
      if (mine.size === 0) pending.delete(socket);
    }
  }

  events.on("runCode", async (socket, { sessionId, file, stdin, args }) => {
    requireCan(socket, sessionId, "edit");
    return cancellable(socket, async (signal) => {
      const { response, entries } = await terminal.runCode(sessionId, runner(socket, sessionId, signal), {
        file,
        stdin,
        args,
      });
      // Everyone, this socket included, was shown why in the terminal.
      if (!response)
        throw new SocketEventError("execution_failed", entries[0]?.content ?? "Execution failed");
      return { language: response.language, version: response.version, run: response.run };
    });
  });

  events.on("terminalCommand", async (socket, { sessionId, command, file, github }) => {
    requireJoined(socket, sessionId);
    await cancellable(socket, (signal) =>
      terminal.command(sessionId, runner(socket, sessionId, signal), command, file, github),
    );
    return null;
  });

  events.on("getTerminalHistory", async (socket, sessionId) => {
    requireJoined(socket, sessionId);
    socket.emit("terminalHistory", { sessionId, history: await terminal.history(sessionId) });
    socket.emit("runStateUpdate", terminal.runState(sessionId));
    return undefined;
  });

  /** A control of the run in flight, by an editor (a viewer changes nothing), its refusals mapped. */
  const control =
    <P extends { sessionId: string }>(work: (payload: P, who: Runner) => unknown) =>
    async (socket: EditorSocket, payload: P) => {
      requireCan(socket, payload.sessionId, "edit");
      try {
        await work(payload, runner(socket, payload.sessionId, new AbortController().signal));
      } catch (error) {
        if (error instanceof RunControlError)
          throw new SocketEventError(CONTROL_CODES[error.kind], error.message);
        throw error;
      }
      return null;
    };

  events.on(
    "runInput",
    control(({ sessionId, line }, who) => terminal.input(sessionId, who, line)),
  );
  events.on(
    "closeRunInput",
    control(({ sessionId }, who) => terminal.closeInput(sessionId, who)),
  );
  events.on(
    "stopRun",
    control(({ sessionId }, who) => terminal.stop(sessionId, who)),
  );
  events.on(
    "setRunInputAccess",
    control(({ sessionId, othersMayType }, who) => terminal.setInputAccess(sessionId, who, othersMayType)),
  );
}
