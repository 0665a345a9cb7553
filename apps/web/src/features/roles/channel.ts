import type { ClientPayloadInput, GrantableRole, Role } from "@ensemble/protocol";
import { toast } from "react-toastify/unstyled";
import { type ChannelScope, defineChannel, type Lifecycle } from "../../lib/sessionChannels";
import type { RequestEvent, SessionLink } from "../../lib/sessionLink";
import { useCollabStore } from "../collab/store";
import { isOwnChange, withRole } from "./roleChange";
import { resetRolesStore, useRolesStore } from "./store";

/** What the host's controls say when a request got no answer. */
const WORDS = { offline: "You are offline.", timeout: "The server did not answer. Try again." };

/**
 * Roles over the session's socket: live role changes (ours and everyone's), the lock, the
 * lobby (the host's list, our own wait), removal, and the host's controls. Everything is
 * checked on the server; this only sends and shows.
 */
export class RolesChannel {
  private readonly link: SessionLink;
  readonly sessionId: string;

  constructor({ link, lifecycle, rejoin }: ChannelScope) {
    this.link = link;
    this.sessionId = link.sessionId;
    resetRolesStore(link.sessionId);
    link.listen("roleChanged", ({ participantId, role }) => {
      const { self } = useCollabStore.getState();
      useCollabStore.setState((s) => ({
        participants: s.participants.map((p) => withRole(p, participantId, role)),
        self: s.self ? withRole(s.self, participantId, role) : null,
      }));
      if (isOwnChange(self, participantId, role)) {
        announceSelf(lifecycle);
        toast.info(ROLE_TOASTS[role]);
      }
    });
    link.listen("lockState", ({ isLocked }) => useRolesStore.setState({ isLocked }));
    link.listen("lobbyUpdate", ({ waiting }) => {
      const before = new Set(useRolesStore.getState().waiting.map((w) => w.id));
      const arrived = waiting.filter((w) => !before.has(w.id));
      useRolesStore.setState({ waiting });
      for (const person of arrived) toast.info(`${person.name} is waiting in the lobby`);
    });
    link.listen("lobbyAdmitted", () => {
      useRolesStore.setState({ lobby: "none" });
      rejoin();
    });
    link.listen("lobbyRefused", () => useRolesStore.setState({ lobby: "refused" }));
    link.listen("removedFromSession", ({ message }) =>
      useCollabStore.setState({ failure: { code: "removed", message }, status: "offline" }),
    );
    // Our join answered: the lock and, for the host, who waits.
    lifecycle.on("joined", ({ isLocked, waiting }) =>
      useRolesStore.setState({ isLocked, waiting, lobby: "none" }),
    );
    // Our join was held at the door of a locked session.
    lifecycle.on("heldInLobby", () => useRolesStore.setState({ lobby: "waiting" }));
  }

  setRole(participantId: string, role: GrantableRole) {
    return this.ask("setRole", { sessionId: this.sessionId, participantId, role });
  }

  transferHost(participantId: string) {
    return this.ask("transferHost", { sessionId: this.sessionId, participantId });
  }

  remove(participantId: string) {
    return this.ask("removeParticipant", { sessionId: this.sessionId, participantId });
  }

  setLocked(isLocked: boolean) {
    return this.ask("setLock", { sessionId: this.sessionId, isLocked });
  }

  decide(participantId: string, admit: boolean) {
    return this.ask("lobbyDecision", { sessionId: this.sessionId, participantId, admit });
  }

  shareKeys() {
    return this.ask("getShareLinks", { sessionId: this.sessionId });
  }

  /** Sends one host control; a refusal's message is what the controls show. */
  private ask<E extends RequestEvent>(event: E, payload: ClientPayloadInput<E>) {
    return this.link.request(event, payload, WORDS);
  }
}

/** Tells the other channels our role changed, with who we are now. */
function announceSelf(lifecycle: Lifecycle): void {
  const { self } = useCollabStore.getState();
  if (self) lifecycle.emit("selfChanged", self);
}

/** Roles, the lock and its lobby, and the host's controls. */
export const rolesChannel = defineChannel("roles", (scope) => new RolesChannel(scope));

const ROLE_TOASTS: Record<Role, string> = {
  host: "You are now the host of this session.",
  editor: "The host let you edit.",
  viewer: "The host made you a viewer: you can watch, not edit.",
};
