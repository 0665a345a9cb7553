import type { Logger } from "../../logger";
import { handle, SocketEventError } from "../../realtime/handle";
import type { EditorSocket } from "../../realtime/socket";
import { RunAbortedError } from "../execution/index";
import { TerminalError, type TerminalService } from "./service";

/**
 * The terminal's events on one socket. Only a socket that joined the session may run its
 * code or read its terminal; runs this socket started are cancelled when it disconnects.
 */
export function registerTerminalSocket(socket: EditorSocket, terminal: TerminalService, logger: Logger) {
  const mine = new Set<AbortController>();
  const identity = socket.data.identity;

  const requireMember = (sessionId: string) => {
    if (socket.data.session?.id !== sessionId)
      throw new SocketEventError("not_joined", "Join the session first");
  };

  const runner = (signal: AbortSignal) => ({
    name: identity.name,
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
      if (error instanceof TerminalError) throw new SocketEventError(error.code, error.message);
      if (error instanceof RunAbortedError) throw new SocketEventError("cancelled", "Run cancelled");
      throw error;
    } finally {
      mine.delete(controller);
    }
  }

  handle(socket, "runCode", logger, async ({ sessionId, stdin, args }) => {
    requireMember(sessionId);
    return cancellable(async (signal) => {
      const { response, entries } = await terminal.runCode(sessionId, runner(signal), {
        ...(stdin !== undefined ? { stdin } : {}),
        ...(args !== undefined ? { args } : {}),
      });
      if (!response)
        throw new SocketEventError("execution_failed", entries[0]?.content ?? "Execution failed");
      return { ...response, terminalEntries: entries };
    });
  });

  handle(socket, "terminalCommand", logger, async ({ sessionId, command }) => {
    requireMember(sessionId);
    return cancellable(async (signal) => ({
      entries: await terminal.command(sessionId, runner(signal), command),
    }));
  });

  handle(socket, "getTerminalHistory", logger, async (sessionId) => {
    requireMember(sessionId);
    socket.emit("terminalHistory", { sessionId, history: await terminal.history(sessionId) });
    socket.emit("runStateUpdate", terminal.runState(sessionId));
    return undefined;
  });

  socket.on("disconnect", () => {
    for (const controller of mine) controller.abort();
  });
}
