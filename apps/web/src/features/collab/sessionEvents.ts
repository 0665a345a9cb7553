import type { SessionLink } from "../../lib/sessionLink";
import { upsertParticipant, useCollabStore } from "./store";

/**
 * Mirrors what the server tells everyone in a session into the collab store: who is here,
 * the language, and whether the session is ending, ended or deleted. Events about another session
 * (a late one from a session this socket left) never reach here: the link drops them.
 */
export function mirrorSessionEvents(link: SessionLink): void {
  link.listen("participantsList", (participants) => useCollabStore.setState({ participants }));
  link.listen("participantJoined", (person) =>
    useCollabStore.setState((s) => ({ participants: upsertParticipant(s.participants, person) })),
  );
  link.listen("participantLeft", (id) =>
    useCollabStore.setState((s) => ({ participants: s.participants.filter((p) => p.id !== id) })),
  );
  link.listen("languageUpdate", ({ language }) => useCollabStore.setState({ language }));
  link.listen("sessionEnding", () => useCollabStore.setState({ isEnding: true }));
  link.listen("sessionState", ({ endedAt }) => useCollabStore.setState({ endedAt }));
  link.listen("sessionDeleted", () => useCollabStore.setState({ isDeleted: true }));
}
