import type { EditorSocket } from "../../lib/socket";
import { upsertParticipant, useCollabStore } from "./store";

/**
 * Mirrors what the server tells everyone in a session into the collab store: who is here,
 * the language, and whether the session is ending or ended. Events about another session
 * (a late one from a session this socket left) change nothing.
 */
export function mirrorSessionEvents(socket: EditorSocket, sessionId: string): void {
  socket.on("participantsList", (participants) => useCollabStore.setState({ participants }));
  socket.on("participantJoined", (person) =>
    useCollabStore.setState((s) => ({ participants: upsertParticipant(s.participants, person) })),
  );
  socket.on("participantLeft", (id) =>
    useCollabStore.setState((s) => ({ participants: s.participants.filter((p) => p.id !== id) })),
  );
  socket.on("languageUpdate", (update) => {
    if (update.sessionId === sessionId) useCollabStore.setState({ language: update.language });
  });
  socket.on("sessionEnding", (ending) => {
    if (ending.sessionId === sessionId) useCollabStore.setState({ isEnding: true });
  });
  socket.on("sessionState", (state) => {
    if (state.sessionId === sessionId) useCollabStore.setState({ endedAt: state.endedAt });
  });
}
