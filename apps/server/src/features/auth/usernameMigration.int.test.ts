import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DATABASES,
  type openTestDb,
  openTestDbBefore,
  startTestServer,
  type TestServer,
} from "../../../test/harness";
import type { Db } from "../../db/index";
import { migrate } from "../../db/migrate";

const HARDENING = "008_account_hardening.sql";

async function insertUser(db: Db, name: string, email: string, createdAt: string) {
  const [row] = await db.query<{ id: string }>(
    "INSERT INTO users (name, email, password_hash, created_at) VALUES ($1, $2, NULL, $3) RETURNING id",
    [name, email, createdAt],
  );
  return String(row?.id);
}

describe.each(DATABASES)("migration 008 (usernames without '@') on %s", (kind) => {
  let opened: Awaited<ReturnType<typeof openTestDb>>;
  const ids: Record<string, string> = {};
  let server: TestServer;

  beforeAll(async () => {
    opened = await openTestDbBefore(kind, HARDENING);
    const { db } = opened;
    // The collision of the issue: a username that spells someone else's email...
    ids.owner = await insertUser(db, "alice", "alice@x.test", "2020-01-01");
    ids.squatter = await insertUser(db, "alice@x.test", "squatter@y.test", "2020-01-02");
    // ...whose plain rename is taken, as is its first suffix.
    ids.taken = await insertUser(db, "alice_x.test", "taken@y.test", "2020-01-03");
    ids.taken1 = await insertUser(db, "ALICE_X.TEST_1", "taken1@y.test", "2020-01-04");
    // Two '@' names with one rename, and a third whose rename is another's suffixed candidate.
    ids.first = await insertUser(db, "b@c_d", "first@y.test", "2020-01-05");
    ids.second = await insertUser(db, "B_c@d", "second@y.test", "2020-01-06");
    ids.third = await insertUser(db, "b@c_d_1", "third@y.test", "2020-01-07");
    await migrate(db);
    server = await startTestServer(kind, {}, { db });
  });
  afterAll(async () => {
    await server.close();
    await opened.drop();
  });

  async function nameOf(id: string | undefined) {
    const rows = await opened.db.query<{ name: string }>("SELECT name FROM users WHERE id = $1", [id]);
    return rows[0]?.name;
  }

  it("renames every username with '@' to a free name and leaves the others alone", async () => {
    expect(await nameOf(ids.owner)).toBe("alice");
    expect(await nameOf(ids.taken)).toBe("alice_x.test");
    expect(await nameOf(ids.squatter)).toBe("alice_x.test_2");
    expect(await nameOf(ids.first)).toBe("b_c_d");
    expect(await nameOf(ids.second)).toBe("b_c_d_2");
    expect(await nameOf(ids.third)).toBe("b_c_d_1");
    const names = await opened.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM users WHERE strpos(name, '@') > 0",
    );
    expect(names[0]?.n).toBe(0);
  });

  it("refuses a new username with '@' in the database itself", async () => {
    await expect(insertUser(opened.db, "eve@x.test", "eve@y.test", "2021-01-01")).rejects.toThrow();
  });

  it("keeps both accounts usable: each signs in by its email, the owner's email finds the owner", async () => {
    const password = "pa55word!";
    const { hashPassword } = await import("./passwords");
    await opened.db.query("UPDATE users SET password_hash = $1", [await hashPassword(password)]);
    const owner = await server.api.post("/api/auth/login", { email: "alice@x.test", password });
    expect(owner.status).toBe(200);
    expect(owner.body.user).toMatchObject({ id: ids.owner, name: "alice" });
    const squatter = await server.api.post("/api/auth/login", { email: "squatter@y.test", password });
    expect(squatter.status).toBe(200);
    expect(squatter.body.user).toMatchObject({ id: ids.squatter, name: "alice_x.test_2" });
    const renamed = await server.api.post("/api/auth/login", { email: "alice_x.test_2", password });
    expect(renamed.body.user).toMatchObject({ id: ids.squatter });
  });
});
