import { ExecuteResponseSchema, RuntimeSchema } from "@ensemble/protocol";
import { piston } from "piston-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { z } from "zod";
import { buildUser, startTestServer, type TestServer } from "../../../test/harness";

const ErrorBodySchema = z.object({ message: z.string() });

/**
 * The published `piston-client` npm package, unchanged, against our server: it sends no
 * credentials (as to a self-hosted Piston), `-1` memory limits, and its JSON as text/plain.
 */
describe("the published piston-client with EXECUTE_ANONYMOUS=true", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("embedded", { EXECUTE_ANONYMOUS: "true", RUN_RATE_MAX: "1000" });
  });
  afterAll(() => server.close());

  it("lists the runtimes and runs JavaScript and Python with stdin and args", async () => {
    const client = piston({ server: server.url });
    const runtimes = z.array(RuntimeSchema).parse(await client.runtimes());
    expect(runtimes.map((r) => r.language)).toEqual(expect.arrayContaining(["javascript", "python"]));

    const js = ExecuteResponseSchema.parse(
      await client.execute(
        "javascript",
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(s.trim(), process.argv.slice(2).join('|')))",
        { stdin: "from stdin", args: ["a b", "c"] },
      ),
    );
    expect(js).toMatchObject({ language: "javascript", run: { stdout: "from stdin a b|c\n", code: 0 } });

    const python = ExecuteResponseSchema.parse(
      await client.execute("python", "import sys\nprint(input().upper(), sys.argv[1:])", { stdin: "ada" }),
    );
    // piston-client's default args are ["1", "2", "3"].
    expect(python).toMatchObject({ language: "python", run: { stdout: "ADA ['1', '2', '3']\n", code: 0 } });
  });

  it("counts anonymous runs per address, and still refuses a wrong token", async () => {
    const limited = await startTestServer("embedded", { EXECUTE_ANONYMOUS: "true", RUN_RATE_MAX: "2" });
    try {
      const client = piston({ server: limited.url });
      for (let i = 0; i < 2; i++) {
        expect(ExecuteResponseSchema.parse(await client.execute("python", "print(1)")).run?.stdout).toBe(
          "1\n",
        );
      }
      const refused = ErrorBodySchema.parse(await client.execute("python", "print(1)"));
      expect(refused.message).toMatch(/Too many runs/);
      // A signed-in user's budget is their own.
      const user = await buildUser(limited.api);
      const hello = { language: "python", version: "*", files: [{ content: "print(2)" }] };
      expect((await limited.api.post("/api/v2/execute", hello, user.token)).status).toBe(200);
      expect((await limited.api.post("/api/v2/execute", hello, "ens_wrong")).status).toBe(401);
    } finally {
      await limited.close();
    }
  });

  it("takes text/plain JSON from no browser only: a page elsewhere cannot post it", async () => {
    const body = JSON.stringify({ language: "python", version: "*", files: [{ content: "print(3)" }] });
    const plain = { "content-type": "text/plain;charset=UTF-8" };
    const direct = await server.api.call("POST", "/api/v2/execute", { body, headers: plain });
    expect(direct.status).toBe(200);
    const fromPage = await server.api.call("POST", "/api/v2/execute", {
      body,
      headers: { ...plain, origin: "https://elsewhere.example" },
    });
    expect(fromPage.status).toBe(415);
  });

  it("serves /api/v2/connect without credentials", async () => {
    const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/api/v2/connect`);
    const messages: unknown[] = [];
    ws.on("message", (raw) => messages.push(JSON.parse(raw.toString())));
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    ws.send(
      JSON.stringify({
        type: "init",
        language: "python",
        version: "*",
        files: [{ content: "print('live')" }],
      }),
    );
    const closed = await new Promise<number>((resolve) => ws.on("close", resolve));
    expect(closed).toBe(4999);
    // Output streams as it is read, so one print may come in more than one message.
    const stdout = messages
      .filter(
        (m): m is { type: "data"; stream: string; data: string } => (m as { type?: string }).type === "data",
      )
      .filter((m) => m.stream === "stdout")
      .map((m) => m.data)
      .join("");
    expect(stdout, JSON.stringify(messages)).toBe("live\n");
  });
});

describe("the published piston-client without EXECUTE_ANONYMOUS (the default)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("embedded");
  });
  afterAll(() => server.close());

  it("is refused: running code needs a signed-in user or an API token", async () => {
    const client = piston({ server: server.url });
    expect(z.array(RuntimeSchema).parse(await client.runtimes()).length).toBeGreaterThan(0);
    const refused = ErrorBodySchema.parse(await client.execute("python", "print(1)"));
    expect(refused.message).toBe("Authentication required");
  });
});
