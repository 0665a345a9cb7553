import type { SocketEvents } from "../../realtime/handle";
import type { PresenceRegistry } from "../../realtime/presence";
import type { EditorServer } from "../../realtime/socket";
import type { SessionService } from "../sessions/index";
import { Lobby } from "./lobby";
import { registerRolesEvents } from "./socket";

export { Lobby };

export interface RolesDeps {
  io: EditorServer;
  sessions: SessionService;
  lobby: Lobby;
  /** Who is here: a role change is applied to a person's live sockets through it. */
  presence: PresenceRegistry;
  events: SocketEvents;
}

/** The host's controls: roles, host transfer, removal, the lock and its lobby, share links. */
export function createRolesFeature(deps: RolesDeps): void {
  registerRolesEvents(deps);
}
