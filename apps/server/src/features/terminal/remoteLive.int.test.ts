import type { Ack, TerminalEntry } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, waitFor } from "../../../test/collabClient";
import { startTestServer, type TestServer } from "../../../test/harness";

/**
 * Live runs with PISTON_URL: the terminal's run goes to the upstream's `/api/v2/connect`.
 * The upstream is a second server of ours with the real sandbox, speaking Piston's API to
 * anonymous callers as a self-hosted Piston does (EXECUTE_ANONYMOUS).
 */
describe("live runs through a Piston server (PISTON_URL)", () => {
  let piston: TestServer;
  let server: TestServer;
  const editors = editorPool(() => server.url);

  beforeAll(async () => {
    piston = await startTestServer("embedded", { EXECUTE_ANONYMOUS: "true", RUN_RATE_MAX: "1000" });
    server = await startTestServer("embedded", { PISTON_URL: `${piston.url}/api/v2`, RUN_RATE_MAX: "1000" });
  });
  afterAll(async () => {
    await editors.closeAll();
    await server?.close();
    await piston?.close().catch(() => {});
  });

  it("streams the program's output as it is written, takes what is typed, and stops on Stop", async () => {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "remote-live");
    expect((await host.request("languageUpdate", { sessionId, language: "python" })).ok).toBe(true);
    await waitFor(() => host.text("src/main.py") !== "");
    const code = "name = input('name? ')\nprint('hello', name, flush=True)\nimport time\ntime.sleep(30)\n";
    const file = host.file("src/main.py");
    file.delete(0, file.length);
    file.insert(0, code);
    await waitFor(() => guest.text("src/main.py") === code);
    const seen: TerminalEntry[] = [];
    guest.socket.on(
      "terminalUpdate",
      ({ entry, entries }: { entry?: TerminalEntry; entries?: TerminalEntry[] }) =>
        seen.push(...(entries ?? (entry ? [entry] : []))),
    );
    const output = () =>
      seen
        .filter((e) => e.type === "output")
        .map((e) => e.content)
        .join("");

    const running = host.request("runCode", { sessionId, file: "src/main.py" }, 60_000) as Promise<
      Ack<{ run: { stdout: string; signal: string | null } }>
    >;
    // The question arrives while the program waits: live, not after the run.
    await waitFor(() => output().includes("name? "), 20_000, "the program's question");
    expect(await host.request("runInput", { sessionId, line: "Ada" })).toEqual({ ok: true, data: null });
    await waitFor(() => output().includes("hello Ada"), 10_000, "the answer to what was typed");
    expect(await guest.request("stopRun", { sessionId })).toEqual({ ok: true, data: null });
    const answer = await running;
    expect(answer).toMatchObject({ ok: true, data: { run: { stdout: "name? hello Ada\n" } } });
    expect(answer.ok && answer.data.run.signal).toMatch(/SIGINT|SIGKILL/);
  });

  it("says why when the Piston server cannot be reached, to everyone", async () => {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "remote-gone");
    await piston.close();
    const failed = await host.request("runCode", { sessionId }, 30_000);
    expect(failed).toMatchObject({ ok: false });
    await waitFor(() =>
      guest
        .events("executionResult")
        .flatMap((result) => result.terminalEntries)
        .some((e) => e.type === "error" && e.content.includes("The Piston server is unreachable")),
    );
  });
});
