import { DomainError } from "../../errors";
import type { SocketEvents } from "../../realtime/handle";
import { actorOf } from "../../realtime/presence";
import { requireCan, requireJoined } from "../../realtime/session";
import type { EditorSocket } from "../../realtime/socket";
import type { Runner } from "./commands";
import type { TerminalService } from "./service";

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
      if (!response) throw new DomainError("execution_failed", entries[0]?.content ?? "Execution failed");
      const { language, version, run, compile } = response;
      return { language, version, ...(run ? { run } : {}), ...(compile ? { compile } : {}) };
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
    socket.emit("runDiagnostics", terminal.diagnostics(sessionId));
    return undefined;
  });

  /** A control of the run in flight, by an editor (a viewer changes nothing). */
  const control =
    <P extends { sessionId: string }>(work: (payload: P, who: Runner) => unknown) =>
    async (socket: EditorSocket, payload: P) => {
      requireCan(socket, payload.sessionId, "edit");
      await work(payload, runner(socket, payload.sessionId, new AbortController().signal));
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
