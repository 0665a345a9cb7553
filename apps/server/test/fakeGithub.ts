import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeGithubUser {
  id: number;
  login: string;
  email: string | null;
  emails?: { email: string; primary: boolean; verified: boolean }[];
}

/**
 * A local server speaking the part of GitHub's OAuth and REST API our login uses:
 * `/login/oauth/authorize` approves at once and redirects back with a code,
 * `/login/oauth/access_token` swaps it for a token, `/user` and `/user/emails` describe it.
 */
export async function startFakeGithub(options: {
  clientId: string;
  clientSecret: string;
  user: FakeGithubUser;
  port?: number;
}) {
  const codes = new Map<string, FakeGithubUser>();
  const tokens = new Map<string, FakeGithubUser>();
  let counter = 0;
  const state = { user: options.user, tokenRequests: 0 };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    if (req.method === "GET" && url.pathname === "/login/oauth/authorize") {
      if (url.searchParams.get("client_id") !== options.clientId)
        return json(404, { error: "unknown client" });
      const code = `code-${++counter}`;
      codes.set(code, state.user);
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (req.method === "POST" && url.pathname === "/login/oauth/access_token") {
      state.tokenRequests += 1;
      const body = JSON.parse(await readBody(req)) as Record<string, string>;
      const user = codes.get(body.code ?? "");
      if (body.client_id !== options.clientId || body.client_secret !== options.clientSecret || !user) {
        return json(200, {
          error: "bad_verification_code",
          error_description: "The code passed is incorrect or expired.",
        });
      }
      codes.delete(body.code ?? "");
      const token = `gho_${++counter}`;
      tokens.set(token, user);
      return json(200, { access_token: token, token_type: "bearer", scope: "read:user,user:email" });
    }
    const user = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
    if (!user) return json(401, { message: "Bad credentials" });
    if (url.pathname === "/user") return json(200, { id: user.id, login: user.login, email: user.email });
    if (url.pathname === "/user/emails") return json(200, user.emails ?? []);
    json(404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    state,
    /** Makes `/login/oauth/authorize` hand out a code for `code` without a browser. */
    issueCode(user: FakeGithubUser = state.user) {
      const code = `code-${++counter}`;
      codes.set(code, user);
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.on("data", (chunk: Buffer) => {
      data += chunk.toString();
    });
    req.on("end", () => resolve(data || "{}"));
    req.on("error", reject);
  });
}
