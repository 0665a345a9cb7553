import {
  type Ack,
  type GrantableRole,
  type Joined,
  LobbyUpdateSchema,
  LockStateSchema,
  type Role,
  RoleChangedSchema,
  SessionNoticeSchema,
  type ShareKeys,
} from "@ensemble/protocol";
import { toast } from "react-toastify/unstyled";
import type { EditorSocket } from "../../lib/socket";
import { useCollabStore } from "../collab/store";
import { isOwnChange, withRole } from "./roleChange";
import { resetRolesStore, useRolesStore } from "./store";

const ACK_TIMEOUT_MS = 10_000;

export interface RolesHooks {
  /** Join again (the host let us in). */
  rejoin(): void;
  /** Our own role changed live (promoted, demoted, made host or no longer host). */
  selfRoleChanged(role: Role): void;
}

/**
 * Roles over the session's socket: live role changes (ours and everyone's), the lock, the
 * lobby (the host's list, our own wait), removal, and the host's controls. Everything is
 * checked on the server; this only sends and shows.
 */
export class RolesChannel {
  constructor(
    private readonly socket: EditorSocket,
    readonly sessionId: string,
    hooks: RolesHooks,
  ) {
    resetRolesStore(sessionId);
    const mine = (payload: { sessionId: string }) => payload.sessionId === sessionId;
    socket.on("roleChanged", (payload) => {
      const parsed = RoleChangedSchema.safeParse(payload);
      if (!parsed.success || !mine(parsed.data)) return;
      const { participantId, role } = parsed.data;
      const { self } = useCollabStore.getState();
      useCollabStore.setState((s) => ({
        participants: s.participants.map((p) => withRole(p, participantId, role)),
        self: s.self ? withRole(s.self, participantId, role) : null,
      }));
      if (isOwnChange(self, participantId, role)) {
        hooks.selfRoleChanged(role);
        toast.info(ROLE_TOASTS[role]);
      }
    });
    socket.on("lockState", (payload) => {
      const parsed = LockStateSchema.safeParse(payload);
      if (parsed.success && mine(parsed.data)) useRolesStore.setState({ isLocked: parsed.data.isLocked });
    });
    socket.on("lobbyUpdate", (payload) => {
      const parsed = LobbyUpdateSchema.safeParse(payload);
      if (!parsed.success || !mine(parsed.data)) return;
      const before = new Set(useRolesStore.getState().waiting.map((w) => w.id));
      const arrived = parsed.data.waiting.filter((w) => !before.has(w.id));
      useRolesStore.setState({ waiting: parsed.data.waiting });
      for (const person of arrived) toast.info(`${person.name} is waiting in the lobby`);
    });
    socket.on("lobbyAdmitted", (payload) => {
      const parsed = SessionNoticeSchema.safeParse(payload);
      if (!parsed.success || !mine(parsed.data)) return;
      useRolesStore.setState({ lobby: "none" });
      hooks.rejoin();
    });
    socket.on("lobbyRefused", (payload) => {
      const parsed = SessionNoticeSchema.safeParse(payload);
      if (parsed.success && mine(parsed.data)) useRolesStore.setState({ lobby: "refused" });
    });
    socket.on("removedFromSession", (payload) => {
      const parsed = SessionNoticeSchema.safeParse(payload);
      if (!parsed.success || !mine(parsed.data)) return;
      useCollabStore.setState({
        failure: { code: "removed", message: parsed.data.message },
        status: "offline",
      });
    });
  }

  /** Our join answered: the lock and, for the host, who waits. */
  joined(data: Joined): void {
    useRolesStore.setState({ isLocked: data.isLocked, waiting: data.waiting, lobby: "none" });
  }

  /** Our join was held at the door of a locked session. */
  waitInLobby(): void {
    useRolesStore.setState({ lobby: "waiting" });
  }

  setRole(participantId: string, role: GrantableRole) {
    return this.request("setRole", { sessionId: this.sessionId, participantId, role });
  }

  transferHost(participantId: string) {
    return this.request("transferHost", { sessionId: this.sessionId, participantId });
  }

  remove(participantId: string) {
    return this.request("removeParticipant", { sessionId: this.sessionId, participantId });
  }

  setLocked(isLocked: boolean) {
    return this.request("setLock", { sessionId: this.sessionId, isLocked });
  }

  decide(participantId: string, admit: boolean) {
    return this.request("lobbyDecision", { sessionId: this.sessionId, participantId, admit });
  }

  shareKeys(): Promise<ShareKeys> {
    return this.request("getShareLinks", { sessionId: this.sessionId });
  }

  /** Sends one host control; rejects with the server's message when refused. */
  private request<T>(
    event: "setRole" | "transferHost" | "removeParticipant" | "setLock" | "lobbyDecision" | "getShareLinks",
    payload: unknown,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      if (!this.socket.connected) {
        reject(new Error("You are offline."));
        return;
      }
      // The catalogue types each event's payload and ack; this one sender takes all six.
      const timed = this.socket.timeout(ACK_TIMEOUT_MS) as unknown as {
        emit(name: string, body: unknown, ack: (err: Error | null, result: Ack<T>) => void): void;
      };
      timed.emit(event, payload, (err, result) => {
        if (err) reject(new Error("The server did not answer. Try again."));
        else if (!result.ok) reject(new Error(result.error.message));
        else resolve(result.data);
      });
    });
  }
}

const ROLE_TOASTS: Record<Role, string> = {
  host: "You are now the host of this session.",
  editor: "The host let you edit.",
  viewer: "The host made you a viewer: you can watch, not edit.",
};
