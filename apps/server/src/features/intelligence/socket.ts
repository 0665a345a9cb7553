import type { SocketEvents } from "../../realtime/handle";
import { requireCan, requireJoined } from "../../realtime/session";
import type { LanguageServerService, PositionKind } from "./service";

const POSITION_EVENTS = {
  lspCompletion: "completion",
  lspHover: "hover",
  lspDefinition: "definition",
  lspSignatureHelp: "signatureHelp",
} as const satisfies Record<string, PositionKind>;

/**
 * The shared language servers' events. Reading requests (completion, hover, definition,
 * signature help) are anyone's who joined, viewers included; rename and format answer edits,
 * so they are refused for viewers (`read_only`) before any server is asked.
 */
export function registerLanguageServerEvents(events: SocketEvents, service: LanguageServerService): void {
  events.on("lspOpen", async (socket, { sessionId, server }) => {
    requireJoined(socket, sessionId);
    return { server, files: await service.open(sessionId, server) };
  });
  for (const [event, kind] of Object.entries(POSITION_EVENTS) as [
    keyof typeof POSITION_EVENTS,
    PositionKind,
  ][]) {
    events.on(event, async (socket, { sessionId, path, digest, position }) => {
      requireJoined(socket, sessionId);
      // Each kind's ack schema is the answer of its own kind (see KINDS in service.ts).
      return (await service.at(kind, { sessionId, path, digest }, position)) as never;
    });
  }
  events.on("lspRename", async (socket, { sessionId, path, digest, position, newName }) => {
    requireCan(socket, sessionId, "edit");
    return service.rename({ sessionId, path, digest }, position, newName);
  });
  events.on("lspFormat", async (socket, { sessionId, path, digest, tabSize, insertSpaces }) => {
    requireCan(socket, sessionId, "edit");
    return service.format({ sessionId, path, digest }, { tabSize, insertSpaces });
  });
}
