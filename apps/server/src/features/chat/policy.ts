import type { SocketSession } from "../../realtime/socket";

/**
 * Whether a participant who joined the session may send to its chat. Every role may, viewers
 * included: a viewer sees everything live and may talk (DESIGN decision 17 refuses them only
 * document updates, runs, git and pull requests). Reading needs only the join (requireJoined).
 * The one place the chat asks about roles: switch it here when roles change.
 */
export function canSendChat(_session: SocketSession): boolean {
  return true;
}
