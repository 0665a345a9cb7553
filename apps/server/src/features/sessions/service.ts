import { randomBytes, timingSafeEqual } from "node:crypto";
import {
  type CreateSessionResponse,
  DEFAULT_LANGUAGE,
  type GrantableRole,
  isLanguage,
  type JoinSessionResponse,
  type Language,
  MY_SESSIONS_PAGE_SIZE,
  type MySessionsPage,
  ROLE_MESSAGES,
  type Role,
  SESSION_ENDED_MESSAGE,
  type SessionResponse,
  type SessionSettings,
  type SessionSummary,
  type SetSessionSettings,
} from "@ensemble/protocol";
import type { Db, Queryable } from "../../db/index";
import { DomainError } from "../../errors";
import type { SessionRecord, SessionRepo } from "./repo";

/** 18 random bytes: 144 bits, above the 128 the design asks of an unguessable id. */
export function generateSessionId(): string {
  return randomBytes(18).toString("base64url");
}

/** Compares a sent key with a stored one in constant time. */
function keyMatches(sent: string, stored: string | null): boolean {
  if (!stored) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What a join gives: in with a role, or a wait in the lobby for the role the host would grant. */
export type Admission = { kind: "in"; role: Role; isNew: boolean } | { kind: "lobby"; role: GrantableRole };

/** Coding sessions: create (caller becomes host), join, read; roles, lock and share links. */
/**
 * The sessions feature's logic. `onUnknownLanguage` hears of a session whose stored language is
 * no longer a record (one was removed): the session still opens, in the default language.
 */
export function createSessionService(
  db: Db,
  sessions: SessionRepo,
  onUnknownLanguage: (sessionId: string, stored: string) => void = () => {},
) {
  /** The session's language: its stored one when known, else the default (see `onUnknownLanguage`). */
  function languageOf(session: { id: string; language: string }): Language {
    if (isLanguage(session.language)) return session.language;
    onUnknownLanguage(session.id, session.language);
    return DEFAULT_LANGUAGE;
  }

  const notFound = () => new DomainError("not_found", "Session not found");

  /**
   * The one decision of who gets in, for REST and socket joins alike. A stored participant
   * comes back with their role, whatever the link; a removed one, or a
   * newcomer, waits in the lobby while the session is locked (a removed one is refused
   * outright); otherwise a newcomer gets the link's role, or the bare id's.
   */
  async function admit(
    session: SessionRecord,
    participantId: string,
    key: string | undefined,
  ): Promise<Admission> {
    let linkRole: GrantableRole | undefined;
    if (key !== undefined) {
      if (keyMatches(key, session.editKey)) linkRole = "editor";
      else if (keyMatches(key, session.viewKey)) linkRole = "viewer";
      else throw new DomainError("invalid_link", ROLE_MESSAGES.invalidLink);
    }
    const stored = await sessions.membership(session.id, participantId);
    // The host's word sticks: a stored participant's role is theirs whatever link they use
    // (else a demoted editor would be an editor again by reloading their edit link).
    if (stored && !stored.isRemoved) return { kind: "in", role: stored.role, isNew: false };
    const role = linkRole ?? (session.idGrantsEdit ? "editor" : "viewer");
    if (session.isLocked) {
      if (stored?.isRemoved) throw new DomainError("removed", ROLE_MESSAGES.removedLocked);
      return { kind: "lobby", role };
    }
    await sessions.admit(session.id, participantId, role);
    return { kind: "in", role, isNew: true };
  }

  /** The stored role of a participant (user or guest) who was not removed, or null. */
  /** The settings every browser of the session obeys (interview mode). */
  async function settingsOf(sessionId: string): Promise<SessionSettings> {
    const session = await sessions.find(sessionId);
    if (!session) throw notFound();
    return { sessionId, completions: session.completions };
  }

  async function memberRole(sessionId: string, participantId: string): Promise<Role | null> {
    const stored = await sessions.membership(sessionId, participantId);
    return stored && !stored.isRemoved ? stored.role : null;
  }

  return {
    async create(hostId: string, title: string, origin: string): Promise<CreateSessionResponse> {
      const id = generateSessionId();
      await db.transaction((tx) => sessions.create(tx, { id, title, hostId }));
      return {
        session_id: id,
        session_link: `${origin}/code-editor-dashboard/${id}`,
        title,
        message: "Session created successfully",
      };
    },

    /**
     * The Join dialog's join: as a socket join, but a locked session's newcomer is only told to
     * wait (the editor's socket then waits in the lobby); throws `removed`.
     */
    async join(userId: string, sessionId: string): Promise<JoinSessionResponse> {
      const session = await sessions.find(sessionId);
      if (!session) throw notFound();
      const admission = await admit(session, userId, undefined);
      if (admission.kind === "lobby")
        return { message: ROLE_MESSAGES.locked, session_id: sessionId, role: admission.role };
      const message = admission.isNew ? "Joined session successfully" : "You are already in this session";
      return { message, session_id: sessionId, role: admission.role };
    },

    /**
     * Joins from the editor's socket, by the bare id or a share link's key: throws
     * `session_locked` for someone the lobby must hold (with the role they would get), and
     * `removed` or `invalid_link`.
     */
    async joinRealtime(
      participantId: string,
      sessionId: string,
      key: string | undefined,
    ): Promise<{
      admission: Admission;
      title: string;
      language: Language;
      endedAt: Date | null;
      isLocked: boolean;
    }> {
      const session = await sessions.find(sessionId);
      if (!session) throw notFound();
      const admission = await admit(session, participantId, key);
      return {
        admission,
        title: session.title,
        language: languageOf(session),
        endedAt: session.endedAt,
        isLocked: session.isLocked,
      };
    },

    memberRole,

    /** Gives a participant (not the host) the editor or viewer role. The caller checks the host asks. */
    async setRole(sessionId: string, participantId: string, role: GrantableRole): Promise<void> {
      const current = await memberRole(sessionId, participantId);
      if (current === null) throw new DomainError("not_found", ROLE_MESSAGES.notParticipant);
      if (current === "host") throw new DomainError("forbidden", ROLE_MESSAGES.notYourself);
      // A viewer knows the id: from now on the bare id must not make anyone an editor.
      if (role === "viewer") await sessions.stopIdGrantingEdit(sessionId);
      await sessions.admit(sessionId, participantId, role);
    },

    /** Hands the host role to a signed-in participant; the old host becomes an editor. */
    async transferHost(sessionId: string, fromUserId: string, toParticipantId: string): Promise<void> {
      if (toParticipantId === fromUserId) throw new DomainError("forbidden", ROLE_MESSAGES.notYourself);
      const current = await memberRole(sessionId, toParticipantId);
      if (current === null) throw new DomainError("not_found", ROLE_MESSAGES.notParticipant);
      if (toParticipantId.startsWith("guest-")) throw new DomainError("forbidden", ROLE_MESSAGES.hostToGuest);
      await db.transaction((tx) => sessions.transferHost(tx, sessionId, fromUserId, toParticipantId));
    },

    /** Removes a participant (never the host): they are kept out while the session is locked. */
    async remove(sessionId: string, participantId: string): Promise<void> {
      if ((await memberRole(sessionId, participantId)) === "host")
        throw new DomainError("forbidden", ROLE_MESSAGES.notYourself);
      if (!(await sessions.remove(sessionId, participantId)))
        throw new DomainError("not_found", ROLE_MESSAGES.notParticipant);
    },

    /** Lets someone from the lobby in with the role their link gave them. */
    admitFromLobby: (sessionId: string, participantId: string, role: GrantableRole) =>
      sessions.admit(sessionId, participantId, role),

    setLocked: (sessionId: string, isLocked: boolean) => sessions.setLocked(sessionId, isLocked),

    /** The share links' keys, made on the first ask; from then the bare id makes viewers. */
    async shareKeys(sessionId: string): Promise<{ editKey: string; viewKey: string }> {
      const keys = await sessions.shareKeys(sessionId, {
        editKey: generateSessionId(),
        viewKey: generateSessionId(),
      });
      if (!keys) throw notFound();
      await sessions.stopIdGrantingEdit(sessionId);
      return keys;
    },

    /**
     * Ends the session (an archive from then: DESIGN decision 15) or reopens it; answers when
     * it ended, null once reopened. The caller checks that the host asks.
     */
    async setEnded(sessionId: string, ended: boolean): Promise<Date | null> {
      if (!(await sessions.find(sessionId))) throw notFound();
      return sessions.setEnded(sessionId, ended);
    },

    /** Refuses, with the `session_ended` error, any change to a session its host ended. */
    async assertOpen(sessionId: string): Promise<void> {
      const session = await sessions.find(sessionId);
      if (!session) throw notFound();
      if (session.endedAt) throw new DomainError("session_ended", SESSION_ENDED_MESSAGE);
    },

    async language(sessionId: string): Promise<Language> {
      const session = await sessions.find(sessionId);
      if (!session) throw notFound();
      return languageOf(session);
    },

    settings: settingsOf,

    /** Changes the session's settings and answers them all. The caller checks that the host asks. */
    async changeSettings(change: SetSessionSettings): Promise<SessionSettings> {
      const { sessionId, completions } = change;
      if (completions !== undefined && !(await sessions.setCompletions(sessionId, completions)))
        throw notFound();
      return settingsOf(sessionId);
    },

    roleOf: (sessionId: string, userId: string) => sessions.roleOf(sessionId, userId),

    /** One page (from 1) of the sessions `userId` hosts or joined, the most recently active first. */
    async listMine(userId: string, page: number): Promise<MySessionsPage> {
      const size = MY_SESSIONS_PAGE_SIZE;
      // One row more than the page tells whether another page follows, without a count.
      const rows = await sessions.listOf(userId, size + 1, (page - 1) * size);
      return { sessions: rows.slice(0, size), page, page_size: size, has_more: rows.length > size };
    },

    /**
     * Refuses unless `userId` hosts the session now: `not_found` for someone who is not in it
     * (as if it did not exist), `forbidden` with `message` for any other participant.
     */
    async requireHost(sessionId: string, userId: string, message: string): Promise<void> {
      const role = await sessions.roleOf(sessionId, userId);
      if (role === null) throw notFound();
      if (role !== "host") throw new DomainError("forbidden", message);
    },

    /** Deletes everything stored of the session. The caller checks that the host asks. */
    async delete(sessionId: string): Promise<void> {
      if (!(await sessions.delete(sessionId))) throw notFound();
    },

    /** The signed-in participants not removed, with their names (callers check who may know them). */
    participants: (sessionId: string) => sessions.participants(sessionId),

    setLanguage: (sessionId: string, language: Language) => sessions.setLanguage(sessionId, language),

    /** How many sessions the user hosts that others took part in, and how many nobody else did. */
    async hostedCounts(userId: string): Promise<{ withOthers: number; alone: number }> {
      const hosted = await sessions.hostedBy(db, userId);
      const withOthers = hosted.filter((s) => s.hasOthers).length;
      return { withOthers, alone: hosted.length - withOthers };
    },

    /**
     * For a host's account deletion, in `tx`: the sessions others took part in end and stay as
     * their archive; those nobody else did are deleted. Answers which were which, and every
     * session of theirs that remains (archived ones included), where their name changes.
     */
    async forgetHost(
      tx: Queryable,
      userId: string,
    ): Promise<{ archived: string[]; deleted: string[]; remaining: string[] }> {
      const hosted = await sessions.hostedBy(tx, userId);
      const archived = hosted.filter((s) => s.hasOthers).map((s) => s.id);
      const deleted = hosted.filter((s) => !s.hasOthers).map((s) => s.id);
      const gone = new Set(deleted);
      const remaining = (await sessions.takenPartIn(tx, userId)).filter((id) => !gone.has(id));
      await sessions.endAll(tx, archived);
      await sessions.deleteAll(tx, deleted);
      return { archived, deleted, remaining };
    },

    /** The sessions the user hosts, oldest first (their data export). */
    hostedList: (userId: string) => sessions.hostedList(userId),

    /** The session's language at a moment, to the millisecond (switches are recorded since migration 022). */
    async languageAt(sessionId: string, at: number): Promise<Language> {
      const session = await sessions.find(sessionId);
      if (!session) throw notFound();
      const then = await sessions.languageAt(sessionId, new Date(at + 1));
      return languageOf({ id: sessionId, language: then ?? session.language });
    },

    /** The whole record for a participant; for anyone else (`viewerId` undefined too) only its title. */
    async get(sessionId: string, viewerId: string | undefined): Promise<SessionResponse | SessionSummary> {
      const session = await sessions.find(sessionId);
      if (!session) throw notFound();
      const isParticipant = viewerId !== undefined && (await sessions.roleOf(sessionId, viewerId)) !== null;
      if (!isParticipant) return { session_id: session.id, title: session.title };
      return {
        session_id: session.id,
        title: session.title,
        is_public: session.isPublic,
        created_at: session.createdAt.toISOString(),
        ended_at: session.endedAt?.toISOString() ?? null,
        participants: await sessions.participants(session.id),
      };
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
