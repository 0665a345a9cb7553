import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltUser, buildUser, startTestServer, type TestServer } from "../../test/harness";

/** A request with a Host header of our choosing (fetch will not send a forged one). */
function requestWithHost(
  base: string,
  options: { method: string; path: string; host: string; token?: string; json?: unknown },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(base);
  const body = options.json === undefined ? undefined : JSON.stringify(options.json);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method,
        path: options.path,
        headers: {
          host: options.host,
          ...(body ? { "content-type": "application/json" } : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Issue 13 item 11: without PUBLIC_URL, links are built from allowed hosts only. */
describe("links without PUBLIC_URL", () => {
  let server: TestServer;
  let user: BuiltUser;
  let port: string;

  beforeAll(async () => {
    server = await startTestServer("postgres", {
      ALLOWED_HOSTS: "ensemble.local, 127.0.0.1, code.example:8443",
      GITHUB_CLIENT_ID: "id",
      GITHUB_CLIENT_SECRET: "secret",
    });
    port = new URL(server.url).port;
    user = await buildUser(server.api);
  });
  afterAll(() => server.close());

  const linkFor = async (host: string) => {
    const res = await requestWithHost(server.url, {
      method: "POST",
      path: "/api/session/create",
      host,
      token: user.token,
      json: { title: "linked" },
    });
    expect(res.status).toBe(201);
    const { session_id: id, session_link: link } = JSON.parse(res.body) as Record<string, string>;
    return String(link).replace(String(id), "{id}");
  };

  it("builds a session link from an allowed Host, a bare one at the port the request came in on", async () => {
    expect(await linkFor(`127.0.0.1:${port}`)).toBe(`http://127.0.0.1:${port}/code-editor-dashboard/{id}`);
    expect(await linkFor(`Ensemble.Local:${port}`)).toBe(
      `http://ensemble.local:${port}/code-editor-dashboard/{id}`,
    );
    expect(await linkFor("code.example:8443")).toBe("http://code.example:8443/code-editor-dashboard/{id}");
  });

  it("never builds one from a forged Host: the first allowed host stands in", async () => {
    const fallback = `http://ensemble.local:${port}/code-editor-dashboard/{id}`;
    for (const forged of [
      "evil.example",
      `evil.example:${port}`,
      "code.example:9999",
      "127.0.0.1:1",
      "ensemble.local.evil",
    ]) {
      expect(await linkFor(forged), forged).toBe(fallback);
    }
  });

  it("sends GitHub the OAuth callback on an allowed host only", async () => {
    const callbackOf = async (host: string) => {
      const res = await requestWithHost(server.url, { method: "GET", path: "/api/auth/github", host });
      expect(res.status).toBe(302);
      return new URL(String(res.headers.location)).searchParams.get("redirect_uri");
    };
    expect(await callbackOf(`127.0.0.1:${port}`)).toBe(`http://127.0.0.1:${port}/api/auth/github/callback`);
    expect(await callbackOf("evil.example")).toBe(`http://ensemble.local:${port}/api/auth/github/callback`);
  });
});
