import type { Presence } from "@ensemble/protocol";
import type { Logger } from "../../logger";
import type { EditorServer } from "../../realtime/socket";
import type { SessionService } from "../sessions/index";
import { Lobby } from "./lobby";
import { registerRolesSocket } from "./socket";

export { Lobby };

export interface RolesDeps {
  io: EditorServer;
  sessions: SessionService;
  lobby: Lobby;
  /** collab's socket id → presence map: a role change updates what everyone sees in place. */
  presences: Map<string, Presence>;
  logger: Logger;
}

/** The host's controls: roles, host transfer, removal, the lock and its lobby, share links. */
export function createRolesFeature(deps: RolesDeps): void {
  deps.io.on("connection", (socket) => registerRolesSocket(socket, deps));
}
