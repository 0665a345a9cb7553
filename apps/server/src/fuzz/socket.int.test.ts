import { randomBytes } from "node:crypto";
import { encodeLaneFrame, LANE_SYNC, laneUrl } from "@ensemble/collab";
import { type Ack, ErrorCodeSchema, type Joined, PROTOCOL_VERSION } from "@ensemble/protocol";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { editorPool, waitFor } from "../../test/collabClient";
import { EventFuzzer, type FuzzEvent } from "../../test/fuzzEvents";
import { buildSession, buildUser, socketClient, startTestServer, type TestServer } from "../../test/harness";
import { seededRandom } from "../../test/random";

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const EVENTS = Number(process.env.FUZZ_EVENTS ?? 10_000);
const LANE_FRAMES = 500;
/** Metered events one connection sends: under its burst, so the schemas and checks answer, not the rate. */
const METERED_PER_SOCKET = 50;
const PARALLEL = 4;

interface Tally {
  sent: number;
  acks: number;
  ackErrors: number;
  /** Acknowledged events answered with success, or not at all, or with `internal`: each a failure. */
  failures: string[];
  socketErrors: number;
  /** How often each refusal code answered (acks and socketError): what the fuzz reached. */
  codes: Record<string, number>;
}

describe(`socket fuzz (seed ${SEED}: FUZZ_SEED=${SEED} replays it)`, () => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  beforeAll(async () => {
    server = await startTestServer("postgres");
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  /** What the fuzz must not change: the document, accounts, sessions, memberships, terminal, PRs. */
  async function state(sessionId: string) {
    const counts = await server.db.query(
      `SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM sessions)::int AS sessions,
              (SELECT count(*) FROM session_participants)::int AS participants,
              (SELECT count(*) FROM terminal_entries)::int AS terminal,
              (SELECT count(*) FROM pull_requests)::int AS pulls,
              (SELECT string_agg(language || coalesce(ended_at::text, ''), ',') FROM sessions) AS settings`,
    );
    return { counts, files: server.app.collab.workspace.files(sessionId) };
  }

  /** Connects as a guest (its secret) or a user (its token) and joins `sessionId` unless it is undefined. */
  async function connect(auth: { token: string } | { guestSecret: string }, sessionId: string | undefined) {
    const socket = socketClient(server.url, { protocolVersion: PROTOCOL_VERSION, ...auth });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("connect_error", reject);
    });
    if (!sessionId) return { socket, ticket: undefined };
    const joined = await new Promise<Ack<Joined>>((resolve) =>
      socket.emit("joinSession", sessionId, resolve),
    );
    if (!joined.ok) throw new Error(`join failed: ${joined.error.message}`);
    return { socket, ticket: joined.data.laneTicket };
  }

  /** Sends one event and, when it asks for an ack, records how it was answered. */
  function send(socket: Socket, event: FuzzEvent, tally: Tally): Promise<void> {
    tally.sent += 1;
    if (event.isRaw) {
      (socket as unknown as { packet(p: { type: number; data: unknown[] }): void }).packet({
        type: 2,
        data: [event.name, ...event.args],
      });
      return Promise.resolve();
    }
    if (!event.withAck) {
      socket.emit(String(event.name), ...event.args);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      socket
        .timeout(15_000)
        .emit(String(event.name), ...event.args, (err: Error | null, ack: Ack<unknown>) => {
          tally.acks += 1;
          const code = !err && ack && !ack.ok ? ErrorCodeSchema.safeParse(ack.error.code) : undefined;
          if (code?.success) tally.codes[code.data] = (tally.codes[code.data] ?? 0) + 1;
          if (code?.success && code.data !== "internal") tally.ackErrors += 1;
          else tally.failures.push(`${String(event.name)} answered ${err ? "nothing" : JSON.stringify(ack)}`);
          resolve();
        });
    });
  }

  it("answers 10,000 malformed events with refusals, changing nothing and crashing nothing", async () => {
    const { host: hostUser, sessionId } = await buildSession(server.api, "fuzzed");
    const { sessionId: notJoined } = await buildSession(server.api, "not joined");
    const member = await buildUser(server.api);
    const guestSecret = randomBytes(32).toString("hex");
    // Both fuzzing identities are members before the state is taken: their joins change nothing later.
    for (const auth of [{ token: member.token }, { guestSecret }])
      (await connect(auth, sessionId)).socket.disconnect();
    const host = await editors.open(hostUser.token);
    await host.join(sessionId);
    await waitFor(() => host.client.synced);
    const before = await state(sessionId);

    const fuzzer = new EventFuzzer(seededRandom(SEED), { notJoined, missing: `missing-${SEED}` });
    const tally: Tally = { sent: 0, acks: 0, ackErrors: 0, failures: [], socketErrors: 0, codes: {} };
    const identities: ({ token: string } | { guestSecret: string })[] = [
      { token: member.token },
      { guestSecret },
    ];
    let batch = 0;
    /** One connection's share: a fresh socket, joined (or not), until its metered budget is spent. */
    async function runBatch() {
      const index = batch++;
      const { socket } = await connect(
        identities[index % 2] ?? { guestSecret },
        index % 5 === 4 ? undefined : sessionId,
      );
      socket.on("socketError", (refusal: { code: string }) => {
        tally.socketErrors += 1;
        tally.codes[refusal.code] = (tally.codes[refusal.code] ?? 0) + 1;
        if (refusal.code === "internal") tally.failures.push(`socketError ${JSON.stringify(refusal)}`);
      });
      const answers: Promise<void>[] = [];
      for (let metered = 0; metered < METERED_PER_SOCKET && tally.sent < EVENTS; ) {
        const event = fuzzer.next();
        if (event.metered) metered += 1;
        answers.push(send(socket, event, tally));
      }
      await Promise.all(answers);
      socket.disconnect();
    }
    while (tally.sent < EVENTS) await Promise.all(Array.from({ length: PARALLEL }, runBatch));

    // Garbage over Yjs lanes too: frames that do not decode, and messages that are not Yjs
    // (over several connections, each under its Yjs meter), then a text frame, which closes one.
    const perLane = LANE_FRAMES / PARALLEL;
    for (let l = 0; l < PARALLEL; l++) {
      const { socket, ticket } = await connect({ guestSecret }, sessionId);
      const lane = new WebSocket(laneUrl(server.url, ticket ?? ""));
      await new Promise((resolve) => lane.once("open", resolve));
      lane.on("message", (data, isBinary) => {
        if (isBinary) return;
        const { code } = JSON.parse(String(data)) as { code: string };
        tally.codes[`lane ${code}`] = (tally.codes[`lane ${code}`] ?? 0) + 1;
        if (code === "internal") tally.failures.push(`lane refusal ${String(data)}`);
      });
      for (let i = 0; i < perLane; i++) {
        const garbage = fuzzer.yjsGarbage().subarray(0, 4096);
        lane.send(i % 2 ? fuzzer.bytes(1 + (i % 300)) : encodeLaneFrame([[LANE_SYNC, garbage]]));
      }
      lane.send("not binary");
      await new Promise((resolve) => lane.once("close", resolve));
      socket.disconnect();
    }

    expect(tally.failures.slice(0, 5)).toEqual([]);
    expect(tally.acks).toBe(tally.ackErrors);
    expect(tally.sent).toBeGreaterThanOrEqual(EVENTS);
    console.info(`socket fuzz, seed ${SEED}:`, {
      ...tally,
      failures: tally.failures.length,
      laneFrames: LANE_FRAMES,
    });

    // Still up, still editing, nothing changed.
    expect((await server.api.get("/api/health")).status).toBe(200);
    expect(await state(sessionId)).toEqual(before);
    const watcher = await editors.open();
    await watcher.join(sessionId);
    await waitFor(() => watcher.client.synced);
    host.file().insert(0, "after the fuzz\n");
    await waitFor(() => watcher.text().startsWith("after the fuzz\n"), 5000, "an edit after the fuzz");
    // About 10 s alone on two cores; room for a busy CI machine.
  }, 120_000);
});
