import type { Joined, Presence } from "@ensemble/protocol";
import type * as Y from "yjs";
import type { SessionLink } from "./sessionLink";

/** What happens to an open session, in the order a channel may see it. */
export interface SessionLifecycle {
  /** Each successful join (the first, and after every reconnect or admission), with the server's answer. */
  joined: Joined;
  /** Our join was held at the door of a locked session. */
  heldInLobby: undefined;
  /** Our own role changed live (promoted, demoted, made host or no longer host). */
  selfChanged: Presence;
  /** The connection dropped; a reconnect brings a new `joined`. */
  left: undefined;
  /** This tab closed the session: stop timers and release devices. */
  ended: undefined;
}

type Handler<K extends keyof SessionLifecycle> = (value: SessionLifecycle[K]) => void;

/** The session's lifecycle as events: the session announces, channels subscribe. */
export class Lifecycle {
  private readonly handlers: { [K in keyof SessionLifecycle]: Handler<K>[] } = {
    joined: [],
    heldInLobby: [],
    selfChanged: [],
    left: [],
    ended: [],
  };

  on<K extends keyof SessionLifecycle>(event: K, handler: Handler<K>): void {
    this.handlers[event].push(handler);
  }

  emit<K extends keyof SessionLifecycle>(event: K, value: SessionLifecycle[K]): void {
    for (const handler of this.handlers[event]) handler(value);
  }
}

/** What a channel gets of the session it serves. */
export interface ChannelScope {
  readonly sessionId: string;
  readonly link: SessionLink;
  /** The session's Yjs document (its files). */
  readonly doc: Y.Doc;
  readonly lifecycle: Lifecycle;
  /** Joins again (the host let us in from the lobby). */
  rejoin(): void;
}

/**
 * A feature's part of an open session: how to make it for one session. The session makes
 * each channel it is given once, and `session.channel(def)` returns that one.
 */
export interface ChannelDef<T> {
  readonly name: string;
  create(scope: ChannelScope): T;
}

/** Declares a feature's session channel. */
export function defineChannel<T>(name: string, create: (scope: ChannelScope) => T): ChannelDef<T> {
  return { name, create };
}
