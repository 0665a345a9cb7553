import { randomBytes } from "node:crypto";
import {
  type CreateSessionResponse,
  type JoinSessionResponse,
  type Language,
  type Role,
  SESSION_ENDED_MESSAGE,
  type SessionResponse,
  type SessionSummary,
} from "@ensemble/protocol";
import type { Db } from "../../db/index";
import { HttpError } from "../../http/errors";
import type { SessionRepo } from "./repo";

/** 18 random bytes: 144 bits, above the 128 the design asks of an unguessable id. */
export function generateSessionId(): string {
  return randomBytes(18).toString("base64url");
}

/** Coding sessions: create (caller becomes host), join, read. */
export function createSessionService(db: Db, sessions: SessionRepo) {
  const notFound = () => new HttpError("not_found", "Session not found");

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

    async join(userId: string, sessionId: string): Promise<JoinSessionResponse> {
      if (!(await sessions.find(sessionId))) throw notFound();
      const { role, isNew } = await sessions.addParticipant(sessionId, userId);
      const message = isNew ? "Joined session successfully" : "You are already in this session";
      return { message, session_id: sessionId, role };
    },

    /**
     * Joins from the editor's socket: a signed-in user becomes a participant (the id is the
     * capability), a guest only needs the session to exist.
     */
    async joinRealtime(
      userId: string | undefined,
      sessionId: string,
    ): Promise<{ role: Role; title: string; language: Language; endedAt: Date | null }> {
      const session = await sessions.find(sessionId);
      if (!session) throw notFound();
      const role = userId ? (await sessions.addParticipant(sessionId, userId)).role : "participant";
      return { role, title: session.title, language: session.language, endedAt: session.endedAt };
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
      if (session.endedAt) throw new HttpError("session_ended", SESSION_ENDED_MESSAGE);
    },

    async language(sessionId: string): Promise<Language> {
      const session = await sessions.find(sessionId);
      if (!session) throw notFound();
      return session.language;
    },

    roleOf: (sessionId: string, userId: string) => sessions.roleOf(sessionId, userId),

    setLanguage: (sessionId: string, language: Language) => sessions.setLanguage(sessionId, language),

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
