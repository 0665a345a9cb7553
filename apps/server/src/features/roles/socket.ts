import { ROLE_MESSAGES, type Role, type RoleChanged } from "@ensemble/protocol";
import { DomainError } from "../../errors";
import { requireCan, sessionRoom } from "../../realtime/session";
import type { RolesDeps } from "./index";
import { waitRoom } from "./lobby";

/**
 * The host's controls. Each is checked here, on the server, against the role
 * the socket holds now; the change is stored first, then applied in place to the sockets of
 * the person it concerns (no reconnect), then told to the room.
 */
export function registerRolesEvents(deps: RolesDeps) {
  const { io, events, sessions, lobby, presence } = deps;

  /** Applies a stored role to someone's live sockets and tells the room. */
  function announceRole(sessionId: string, participantId: string, role: Role): RoleChanged {
    presence.setRole(sessionId, participantId, role);
    const changed = { sessionId, participantId, role };
    io.to(sessionRoom(sessionId)).emit("roleChanged", changed);
    return changed;
  }

  events.on("setRole", async (socket, { sessionId, participantId, role }) => {
    requireCan(socket, sessionId, "manage");
    await sessions.setRole(sessionId, participantId, role);
    return announceRole(sessionId, participantId, role);
  });

  events.on("transferHost", async (socket, { sessionId, participantId }) => {
    const self = requireCan(socket, sessionId, "manage");
    await sessions.transferHost(sessionId, self.participantId, participantId);
    announceRole(sessionId, self.participantId, "editor");
    const changed = announceRole(sessionId, participantId, "host");
    // The new host sees who waits; the old one no longer does.
    await lobby.tellHosts(sessionId);
    return changed;
  });

  events.on("removeParticipant", async (socket, { sessionId, participantId }) => {
    const self = requireCan(socket, sessionId, "manage");
    if (participantId === self.participantId) throw new DomainError("forbidden", ROLE_MESSAGES.notYourself);
    await sessions.remove(sessionId, participantId);
    for (const target of presence.socketsOf(sessionId, participantId)) {
      target.emit("removedFromSession", { sessionId, message: ROLE_MESSAGES.removed });
      target.disconnect(true);
    }
    return null;
  });

  events.on("setLock", async (socket, { sessionId, isLocked }) => {
    requireCan(socket, sessionId, "manage");
    await sessions.setLocked(sessionId, isLocked);
    const state = { sessionId, isLocked };
    io.to(sessionRoom(sessionId)).emit("lockState", state);
    // Unlocked: nobody needs to wait any more.
    if (!isLocked) {
      for (const { id } of await lobby.list(sessionId)) await admit(sessionId, id);
    }
    return state;
  });

  /**
   * Lets one person in: stored first, then each of their waiting sockets, on whichever node,
   * is told and joins again (one reconnecting meanwhile joins straight in: they are stored).
   */
  async function admit(sessionId: string, participantId: string): Promise<boolean> {
    const waiting = await lobby.take(sessionId, participantId);
    if (!waiting) return false;
    await sessions.admitFromLobby(sessionId, participantId, waiting.role);
    io.to(waitRoom(sessionId, participantId)).emit("lobbyAdmitted", {
      sessionId,
      message: "The host let you in.",
    });
    return true;
  }

  events.on("lobbyDecision", async (socket, { sessionId, participantId, admit: isAdmitted }) => {
    requireCan(socket, sessionId, "manage");
    if (isAdmitted) {
      if (!(await admit(sessionId, participantId)))
        throw new DomainError("not_found", ROLE_MESSAGES.notWaiting);
      return null;
    }
    if (!(await lobby.refuse(sessionId, participantId)))
      throw new DomainError("not_found", ROLE_MESSAGES.notWaiting);
    io.to(waitRoom(sessionId, participantId)).emit("lobbyRefused", {
      sessionId,
      message: ROLE_MESSAGES.refused,
    });
    return null;
  });

  events.on("getShareLinks", async (socket, { sessionId }) => {
    requireCan(socket, sessionId, "manage");
    return sessions.shareKeys(sessionId);
  });
}
