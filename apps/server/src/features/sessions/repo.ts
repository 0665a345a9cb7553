import {
  DELETED_USER_NAME,
  type Language,
  type MySession,
  type Participant,
  type Role,
} from "@ensemble/protocol";
import type { Queryable } from "../../db/index";

export interface SessionRecord {
  id: string;
  title: string;
  hostId: string | null;
  isPublic: boolean;
  /** As stored: a language id, which may no longer be a known one (the service falls back). */
  language: string;
  createdAt: Date;
  /** When the host ended the session (read-only from then), or null while it is open. */
  endedAt: Date | null;
  /** Newcomers wait in the lobby for the host. */
  isLocked: boolean;
  editKey: string | null;
  viewKey: string | null;
  /** Whether the bare id makes a newcomer an editor (else a viewer). */
  idGrantsEdit: boolean;
  /** Completion lists for everyone; false in interview mode. */
  completions: boolean;
}

/** A participant's stored place in a session: their role, and whether the host removed them. */
export interface Membership {
  role: Role;
  isRemoved: boolean;
}

interface SessionRow {
  id: string;
  title: string;
  host_id: string | null;
  is_public: boolean;
  language: string;
  created_at: Date;
  ended_at: Date | null;
  is_locked: boolean;
  edit_key: string | null;
  view_key: string | null;
  id_grants_edit: boolean;
  completions: boolean;
}

interface MySessionRow {
  id: string;
  title: string;
  role: Role;
  participant_count: string;
  last_activity_at: Date;
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
  isLocked: r.is_locked,
  editKey: r.edit_key,
  viewKey: r.view_key,
  idGrantsEdit: r.id_grants_edit,
  completions: r.completions,
});

/** Guests' participant ids (`guest-…`) live in their own table: they have no user row. */
const isGuestId = (participantId: string) => participantId.startsWith("guest-");
const tableOf = (participantId: string) =>
  isGuestId(participantId)
    ? { table: "session_guests", column: "guest_id" }
    : { table: "session_participants", column: "user_id" };
/** A user id that is not a uuid is nobody's (and must not reach a uuid column). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isKnownShape = (participantId: string) => isGuestId(participantId) || UUID.test(participantId);

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
        `SELECT id, title, host_id, is_public, language, created_at, ended_at, is_locked, edit_key, view_key,
         id_grants_edit, completions FROM sessions WHERE id = $1`,
        [id],
      );
      return rows[0] ? toRecord(rows[0]) : undefined;
    },
    /** A participant's stored role and removal (users and guests alike), or null if never admitted. */
    async membership(sessionId: string, participantId: string): Promise<Membership | null> {
      if (!isKnownShape(participantId)) return null;
      const { table, column } = tableOf(participantId);
      const rows = await db.query<{ role: Role; removed_at: Date | null }>(
        `SELECT role, removed_at FROM ${table} WHERE session_id = $1 AND ${column} = $2`,
        [sessionId, participantId],
      );
      return rows[0] ? { role: rows[0].role, isRemoved: rows[0].removed_at !== null } : null;
    },
    /** Admits a participant with `role` (a removed one comes back), or changes their role. */
    async admit(sessionId: string, participantId: string, role: Role): Promise<void> {
      const { table, column } = tableOf(participantId);
      await db.query(
        `INSERT INTO ${table} (session_id, ${column}, role) VALUES ($1, $2, $3)
         ON CONFLICT (session_id, ${column}) DO UPDATE SET role = $3, removed_at = NULL`,
        [sessionId, participantId, role],
      );
    },
    /** Marks a participant removed; false when they are not one. */
    async remove(sessionId: string, participantId: string): Promise<boolean> {
      if (!isKnownShape(participantId)) return false;
      const { table, column } = tableOf(participantId);
      const rows = await db.query(
        `UPDATE ${table} SET removed_at = now() WHERE session_id = $1 AND ${column} = $2 AND role <> 'host'
         RETURNING role`,
        [sessionId, participantId],
      );
      return rows.length > 0;
    },
    /** Moves the host role: the old host becomes an editor, in one transaction with the session's host_id. */
    async transferHost(
      tx: Queryable,
      sessionId: string,
      fromUserId: string,
      toUserId: string,
    ): Promise<void> {
      await tx.query(
        "UPDATE session_participants SET role = 'editor' WHERE session_id = $1 AND user_id = $2",
        [sessionId, fromUserId],
      );
      await tx.query("UPDATE session_participants SET role = 'host' WHERE session_id = $1 AND user_id = $2", [
        sessionId,
        toUserId,
      ]);
      await tx.query("UPDATE sessions SET host_id = $2 WHERE id = $1", [sessionId, toUserId]);
    },
    async setLocked(sessionId: string, isLocked: boolean): Promise<void> {
      await db.query("UPDATE sessions SET is_locked = $2 WHERE id = $1", [sessionId, isLocked]);
    },
    /** From now on the bare id makes newcomers viewers (the session has viewers, who know it). */
    async stopIdGrantingEdit(sessionId: string): Promise<void> {
      await db.query("UPDATE sessions SET id_grants_edit = false WHERE id = $1", [sessionId]);
    },
    /** The share links' keys, made once (concurrent first asks agree on the stored pair). */
    async shareKeys(sessionId: string, fresh: { editKey: string; viewKey: string }) {
      const rows = await db.query<{ edit_key: string; view_key: string }>(
        `UPDATE sessions SET edit_key = coalesce(edit_key, $2), view_key = coalesce(view_key, $3)
         WHERE id = $1 RETURNING edit_key, view_key`,
        [sessionId, fresh.editKey, fresh.viewKey],
      );
      return rows[0] ? { editKey: rows[0].edit_key, viewKey: rows[0].view_key } : undefined;
    },
    /** The role `userId` holds in the session, or null when they never joined it. */
    async roleOf(sessionId: string, userId: string): Promise<Role | null> {
      const rows = await db.query<{ role: Role }>(
        "SELECT role FROM session_participants WHERE session_id = $1 AND user_id = $2 AND removed_at IS NULL",
        [sessionId, userId],
      );
      return rows[0]?.role ?? null;
    },
    /** Stores the session's completions switch; false when there is no such session. */
    async setCompletions(sessionId: string, completions: boolean): Promise<boolean> {
      const rows = await db.query("UPDATE sessions SET completions = $2 WHERE id = $1 RETURNING id", [
        sessionId,
        completions,
      ]);
      return rows.length > 0;
    },
    /** Switches the language and, when it changed, records the switch (what the replay shows and restores). */
    async setLanguage(sessionId: string, language: Language) {
      await db.query(
        `WITH before AS (SELECT language FROM sessions WHERE id = $1), switched AS (
           UPDATE sessions SET language = $2 WHERE id = $1
         )
         INSERT INTO session_language_changes (session_id, language, previous)
         SELECT $1, $2, language FROM before WHERE language <> $2`,
        [sessionId, language],
      );
    },

    /**
     * The language just before `before`: that of the last switch before it, else the one the first
     * switch after it replaced; undefined when there was no switch (the current one held throughout).
     */
    async languageAt(sessionId: string, before: Date): Promise<string | undefined> {
      const [row] = await db.query<{ language: string }>(
        `(SELECT language, 0 AS side, at FROM session_language_changes WHERE session_id = $1 AND at < $2
          ORDER BY at DESC LIMIT 1)
         UNION ALL
         (SELECT previous, 1, at FROM session_language_changes WHERE session_id = $1 AND at >= $2
          ORDER BY at LIMIT 1)
         ORDER BY side LIMIT 1`,
        [sessionId, before.toISOString()],
      );
      return row?.language;
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
    /**
     * The sessions `userId` takes part in (not removed from), the most recently active first:
     * `limit` rows from `offset`. Activity is the latest of the creation, a join, a stored edit
     * (the recent history rows or, once folded, their chunks) and the end.
     */
    async listOf(userId: string, limit: number, offset: number): Promise<MySession[]> {
      const rows = await db.query<MySessionRow>(
        `SELECT s.id, s.title, p.role, s.ended_at,
           (SELECT count(*) FROM session_participants x WHERE x.session_id = s.id AND x.removed_at IS NULL)
           + (SELECT count(*) FROM session_guests g WHERE g.session_id = s.id AND g.removed_at IS NULL)
             AS participant_count,
           greatest(s.created_at, s.ended_at,
             (SELECT max(h.at) FROM doc_history h WHERE h.session_id = s.id),
             (SELECT max(c.end_at) FROM doc_history_chunks c WHERE c.session_id = s.id),
             (SELECT max(x.joined_at) FROM session_participants x WHERE x.session_id = s.id)) AS last_activity_at
         FROM session_participants p JOIN sessions s ON s.id = p.session_id
         WHERE p.user_id = $1 AND p.removed_at IS NULL
         ORDER BY last_activity_at DESC, s.id LIMIT $2 OFFSET $3`,
        [userId, limit, offset],
      );
      return rows.map((r) => ({
        session_id: r.id,
        title: r.title,
        role: r.role,
        participant_count: Number(r.participant_count),
        last_activity_at: r.last_activity_at.toISOString(),
        ended_at: r.ended_at?.toISOString() ?? null,
      }));
    },
    /**
     * Deletes the session and, by its foreign keys and trigger (migrations 014, 015), everything
     * stored of it; false when there was no such session.
     */
    async delete(sessionId: string): Promise<boolean> {
      const rows = await db.query("DELETE FROM sessions WHERE id = $1 RETURNING id", [sessionId]);
      return rows.length > 0;
    },
    async participants(sessionId: string): Promise<Participant[]> {
      const rows = await db.query<ParticipantRow>(
        `SELECT p.user_id, coalesce(u.name, $2) AS name, p.role, p.joined_at FROM session_participants p
         JOIN users u ON u.id = p.user_id WHERE p.session_id = $1 AND p.removed_at IS NULL ORDER BY p.joined_at, u.name`,
        [sessionId, DELETED_USER_NAME],
      );
      return rows.map((r) => ({
        user_id: r.user_id,
        name: r.name,
        role: r.role,
        joined_at: r.joined_at.toISOString(),
      }));
    },
    /**
     * The sessions `userId` hosts, each with whether anyone else took part (a signed-in
     * participant whose account is not deleted, or a guest), removed people included: they
     * may have written in it.
     */
    async hostedBy(tx: Queryable, userId: string): Promise<{ id: string; hasOthers: boolean }[]> {
      const rows = await tx.query<{ id: string; has_others: boolean }>(
        `SELECT s.id,
           EXISTS (SELECT 1 FROM session_participants p JOIN users u ON u.id = p.user_id
             WHERE p.session_id = s.id AND p.user_id <> $1 AND u.deleted_at IS NULL)
           OR EXISTS (SELECT 1 FROM session_guests g WHERE g.session_id = s.id) AS has_others
         FROM sessions s WHERE s.host_id = $1 ORDER BY s.created_at`,
        [userId],
      );
      return rows.map((r) => ({ id: r.id, hasOthers: r.has_others }));
    },
    /** The sessions `userId` took part in (as anyone, removed or not), in `tx`. */
    async takenPartIn(tx: Queryable, userId: string): Promise<string[]> {
      const rows = await tx.query<{ session_id: string }>(
        "SELECT session_id FROM session_participants WHERE user_id = $1",
        [userId],
      );
      return rows.map((r) => r.session_id);
    },
    /** Ends these sessions (keeping an earlier end) in `tx`. */
    async endAll(tx: Queryable, ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await tx.query("UPDATE sessions SET ended_at = coalesce(ended_at, now()) WHERE id = ANY($1::text[])", [
        ids,
      ]);
    },
    /** Deletes these sessions and everything stored of them (their rows cascade) in `tx`. */
    async deleteAll(tx: Queryable, ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await tx.query("DELETE FROM sessions WHERE id = ANY($1::text[])", [ids]);
    },
    /** The sessions `userId` hosts, oldest first, for their data export. */
    async hostedList(
      userId: string,
    ): Promise<{ id: string; title: string; createdAt: Date; endedAt: Date | null }[]> {
      const rows = await db.query<{ id: string; title: string; created_at: Date; ended_at: Date | null }>(
        "SELECT id, title, created_at, ended_at FROM sessions WHERE host_id = $1 ORDER BY created_at, id",
        [userId],
      );
      return rows.map((r) => ({ id: r.id, title: r.title, createdAt: r.created_at, endedAt: r.ended_at }));
    },
  };
}

export type SessionRepo = ReturnType<typeof createSessionRepo>;
