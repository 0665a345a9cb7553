import type { Language, Participant, Role } from "@ensemble/protocol";
import type { Queryable } from "../../db/index";

export interface SessionRecord {
  id: string;
  title: string;
  hostId: string | null;
  isPublic: boolean;
  language: Language;
  createdAt: Date;
  /** When the host ended the session (read-only from then), or null while it is open. */
  endedAt: Date | null;
}

interface SessionRow {
  id: string;
  title: string;
  host_id: string | null;
  is_public: boolean;
  language: Language;
  created_at: Date;
  ended_at: Date | null;
}

interface ParticipantRow {
  user_id: string;
  name: string;
  role: Role;
  joined_at: Date;
}

const toRecord = (r: SessionRow): SessionRecord => ({
  id: r.id,
  title: r.title,
  hostId: r.host_id,
  isPublic: r.is_public,
  language: r.language,
  createdAt: r.created_at,
  endedAt: r.ended_at,
});

/** SQL for sessions and their participants. */
export function createSessionRepo(db: Queryable) {
  return {
    /** Creates the session and its host's participant row in one transaction. */
    async create(tx: Queryable, s: { id: string; title: string; hostId: string }) {
      await tx.query("INSERT INTO sessions (id, title, host_id) VALUES ($1, $2, $3)", [
        s.id,
        s.title,
        s.hostId,
      ]);
      await tx.query("INSERT INTO session_participants (session_id, user_id, role) VALUES ($1, $2, 'host')", [
        s.id,
        s.hostId,
      ]);
    },
    async find(id: string) {
      const rows = await db.query<SessionRow>(
        "SELECT id, title, host_id, is_public, language, created_at, ended_at FROM sessions WHERE id = $1",
        [id],
      );
      return rows[0] ? toRecord(rows[0]) : undefined;
    },
    /** Adds a participant; an existing participant keeps their role. Returns the role held. */
    async addParticipant(sessionId: string, userId: string): Promise<{ role: Role; isNew: boolean }> {
      const inserted = await db.query<{ role: Role }>(
        `INSERT INTO session_participants (session_id, user_id, role) VALUES ($1, $2, 'participant')
         ON CONFLICT (session_id, user_id) DO NOTHING RETURNING role`,
        [sessionId, userId],
      );
      if (inserted[0]) return { role: inserted[0].role, isNew: true };
      const existing = await db.query<{ role: Role }>(
        "SELECT role FROM session_participants WHERE session_id = $1 AND user_id = $2",
        [sessionId, userId],
      );
      return { role: existing[0]?.role ?? "participant", isNew: false };
    },
    /** The role `userId` holds in the session, or null when they never joined it. */
    async roleOf(sessionId: string, userId: string): Promise<Role | null> {
      const rows = await db.query<{ role: Role }>(
        "SELECT role FROM session_participants WHERE session_id = $1 AND user_id = $2",
        [sessionId, userId],
      );
      return rows[0]?.role ?? null;
    },
    async setLanguage(sessionId: string, language: Language) {
      await db.query("UPDATE sessions SET language = $2 WHERE id = $1", [sessionId, language]);
    },
    /** Ends the session now (keeping an earlier end) or, with `ended` false, reopens it. */
    async setEnded(sessionId: string, ended: boolean): Promise<Date | null> {
      const rows = await db.query<{ ended_at: Date | null }>(
        `UPDATE sessions SET ended_at = CASE WHEN $2 THEN coalesce(ended_at, now()) END
         WHERE id = $1 RETURNING ended_at`,
        [sessionId, ended],
      );
      return rows[0]?.ended_at ?? null;
    },
    async participants(sessionId: string): Promise<Participant[]> {
      const rows = await db.query<ParticipantRow>(
        `SELECT p.user_id, u.name, p.role, p.joined_at FROM session_participants p
         JOIN users u ON u.id = p.user_id WHERE p.session_id = $1 ORDER BY p.joined_at, u.name`,
        [sessionId],
      );
      return rows.map((r) => ({
        user_id: r.user_id,
        name: r.name,
        role: r.role,
        joined_at: r.joined_at.toISOString(),
      }));
    },
  };
}

export type SessionRepo = ReturnType<typeof createSessionRepo>;
