import type { Presence } from "@ensemble/protocol";
import type { SocketEvents } from "../../realtime/handle";
import type { EditorServer } from "../../realtime/socket";
import type { SessionService } from "../sessions/index";
import { Lobby } from "./lobby";
import { registerRolesEvents } from "./socket";

export { Lobby };

export interface RolesDeps {
  io: EditorServer;
  sessions: SessionService;
  lobby: Lobby;
  /** collab's socket id → presence map: a role change updates what everyone sees in place. */
  presences: Map<string, Presence>;
  events: SocketEvents;
}

/** The host's controls: roles, host transfer, removal, the lock and its lobby, share links. */
export function createRolesFeature(deps: RolesDeps): void {
  registerRolesEvents(deps);
}
