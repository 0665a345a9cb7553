import { describe, expect, it } from "vitest";
import { upNodes, useCluster } from "../../test/cluster";
import { openEditor, type TestEditor, waitFor } from "../../test/collabClient";
import { apiClient, buildSession } from "../../test/harness";

/** Failover trials; CI runs a few, `CLUSTER_FAILOVER_TRIALS=20` runs the twenty. */
const TRIALS = Number(process.env.CLUSTER_FAILOVER_TRIALS ?? 2);
const SESSIONS = 10;
const TYPISTS = 3;

describe("three nodes behind HAProxy", () => {
  // The balancer, then three nodes: CLUSTER_PORT_BASE + 10 to 13 (8510-8513 by default).
  const cluster = useCluster(10);
  const { nodes, editors, owner, startNode } = cluster;

  /** `SESSIONS` sessions with `TYPISTS` guests each, connected through the balancer. */
  const openSessions = async (browserBackoff = false) => {
    const sessions: { sessionId: string; hostToken: string; typists: TestEditor[] }[] = [];
    for (let s = 0; s < SESSIONS; s++) {
      const { sessionId, host } = await buildSession(apiClient(cluster.balancer.url), `cluster ${s}`);
      sessions.push({
        sessionId,
        hostToken: host.token,
        typists: await cluster.openTypists(sessionId, TYPISTS, browserBackoff),
      });
    }
    return sessions;
  };
  const closeSessions = async (sessions: { typists: TestEditor[] }[]) => {
    for (const { typists } of sessions) for (const typist of typists) await typist.close();
  };

  it("puts every socket and lane of one session on one node, and spreads sessions over the nodes", async () => {
    const sessions = await openSessions();
    const owners = new Set<string>();
    for (const { sessionId } of sessions) {
      await waitFor(async () => (await owner(sessionId)) !== undefined, 5000);
      owners.add((await owner(sessionId)) ?? "");
    }
    // Each session loaded on exactly one node: the nodes' live sessions add up to the sessions.
    let live = 0;
    for (const node of nodes) {
      const health = (await (await fetch(`${node.url}/api/health`)).json()) as { liveSessions: number };
      live += health.liveSessions;
    }
    expect(live).toBe(SESSIONS);
    // A lane whose ticket reached another node than its socket's would have been refused.
    for (const { typists } of sessions) for (const typist of typists) expect(typist.lane()).toBeDefined();
    expect(owners.size).toBeGreaterThan(1);
    const [first] = sessions;
    first?.typists[0]?.file().insert(0, "routed;");
    for (const typist of first?.typists ?? []) await waitFor(() => typist.text().startsWith("routed;"));
    // REST under /api/session/<id>/ goes to the session's node too: git there needs its live files.
    const api = apiClient(cluster.balancer.url);
    for (let i = 0; i < 6; i++) {
      const git = await api.post(`/api/session/${first?.sessionId}/git`, { op: "status" }, first?.hostToken);
      expect(git.status).toBe(200);
    }
    await closeSessions(sessions);
  }, 120_000);

  it("drains a node on SIGTERM: its sessions move to the others with no client away longer than 2 s", async () => {
    const sessions = await openSessions(true);
    const holders = await Promise.all(sessions.map(({ sessionId }) => owner(sessionId)));
    const drained = nodes.findIndex((node) => holders.includes(node.id));
    const node = nodes[drained];
    const moving = sessions.filter((_, s) => holders[s] === node?.id);
    // How long each client of a moving session had no socket.
    const gaps: number[] = [];
    for (const { typists } of moving) {
      for (const typist of typists) {
        let since = 0;
        typist.socket.on("disconnect", () => {
          since = Date.now();
        });
        typist.socket.io.on("reconnect", () => gaps.push(Date.now() - since));
      }
    }
    node?.child.kill("SIGTERM");
    expect(await node?.exited).toBe(0);
    const clients = moving.flatMap(({ typists }) => typists);
    await waitFor(() => gaps.length === clients.length, 15_000, "every client to reconnect");
    if (process.env.CLUSTER_FAILOVER_TRIALS)
      process.stdout.write(
        `drain: ${clients.length} clients away ${Math.min(...gaps)}-${Math.max(...gaps)} ms\n`,
      );
    expect(Math.max(...gaps)).toBeLessThanOrEqual(2000);
    for (const { sessionId, typists } of moving) {
      await waitFor(async () => ![undefined, node?.id].includes(await owner(sessionId)), 10_000);
      typists[0]?.file().insert(0, "moved;");
      for (const typist of typists)
        await waitFor(() => typist.text().startsWith("moved;"), 10_000, "the edit");
    }
    await closeSessions(sessions);
    await startNode(drained);
  }, 120_000);

  it.each(Array.from({ length: TRIALS }, (_, trial) => trial))(
    "failover trial %i: a node killed mid-typing, every client reconnects through HAProxy and all converge with every keystroke",
    async (trial) => {
      await waitFor(async () => (await upNodes(cluster.balancer.url)).size === 3, 30_000);
      const sessions = await openSessions();
      const holders = await Promise.all(sessions.map(({ sessionId }) => owner(sessionId)));
      // The node of this trial (trials go round the three), unless it got no session this time.
      let victim = trial % nodes.length;
      if (!holders.includes(nodes[victim]?.id)) victim = nodes.findIndex((n) => holders.includes(n.id));
      const typed = sessions.map(() => [] as string[]);
      let keystroke = 0;
      const typeOnce = () => {
        sessions.forEach(({ typists }, s) => {
          typists.forEach((typist, t) => {
            const token = `<${trial}.${s}.${t}.${keystroke}>`;
            const text = typist.file();
            // At the start or after a `>`: never inside another token, which would split it.
            const content = text.toString();
            const at = content.indexOf(">", Math.floor(Math.random() * content.length));
            text.insert(at === -1 ? 0 : at + 1, token);
            typed[s]?.push(token);
          });
        });
        keystroke += 1;
      };
      const typing = setInterval(typeOnce, 50);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const killed = nodes[victim];
      const moved = holders.filter((holder) => holder === killed?.id).length;
      // The hand-run's record of which node each trial killed (the 20 trials go round the three).
      if (process.env.CLUSTER_FAILOVER_TRIALS)
        process.stdout.write(`failover trial ${trial}: SIGKILL ${killed?.id}, ${moved} sessions moved\n`);
      killed?.child.kill("SIGKILL");
      await killed?.exited;
      // Typing goes on while the clients find the survivors.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      clearInterval(typing);
      for (const [s, { typists }] of sessions.entries()) {
        const tokens = typed[s] ?? [];
        await waitFor(
          () =>
            typists.every((t) => t.socket.connected && t.text() === typists[0]?.text()) &&
            tokens.every((token) => typists[0]?.text().includes(token)),
          30_000,
          `session ${s} to converge with all ${tokens.length} keystrokes`,
        ).catch((error: unknown) => {
          const state = typists.map((t) => ({
            connected: t.socket.connected,
            lane: t.lane() !== undefined,
            length: t.text().length,
            missing: tokens.filter((token) => !t.text().includes(token)).length,
          }));
          throw new Error(
            `${String(error)}; victim ${killed?.id}, owner was ${holders[s]}: ${JSON.stringify(state)}`,
          );
        });
      }
      // What a newcomer loads from the survivor (stored and live) holds every keystroke too.
      const [sample] = sessions;
      if (sample) {
        const late = await openEditor(cluster.balancer.url, undefined, {
          route: sample.sessionId,
          lane: true,
        });
        editors.push(late);
        expect((await late.join(sample.sessionId)).ok).toBe(true);
        await waitFor(() => late.text() === sample.typists[0]?.text(), 10_000, "the newcomer's sync");
        await late.close();
      }
      await closeSessions(sessions);
      await startNode(victim);
    },
    120_000,
  );
});
