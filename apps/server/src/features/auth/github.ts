import { z } from "zod";
import { DomainError } from "../../errors";

const TokenResponseSchema = z.union([
  z.object({ access_token: z.string().min(1) }),
  z.object({ error: z.string(), error_description: z.string().optional() }),
]);
const ProfileSchema = z.object({
  id: z.number().int(),
  login: z.string().min(1),
  email: z.string().nullish(),
});
const EmailsSchema = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }));

export interface GithubOAuthConfig {
  clientId: string;
  clientSecret: string;
  oauthUrl: string;
  apiUrl: string;
}

export interface GithubProfile {
  id: number;
  login: string;
  email: string | null;
}

/** What a GitHub consent asks for: signing in, or also the host's repositories for the Git panel. */
export const GITHUB_SCOPES = {
  login: "read:user user:email",
  git: "read:user user:email repo",
} as const;

/** The address of GitHub's consent page for our app. */
export function authorizeUrl(
  config: GithubOAuthConfig,
  redirectUri: string,
  state: string,
  scope: string = GITHUB_SCOPES.login,
): string {
  const url = new URL("/login/oauth/authorize", config.oauthUrl);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    redirect_uri: redirectUri,
    scope,
    state,
  }).toString();
  return url.toString();
}

/** Exchanges the callback's code for an access token. */
export async function exchangeCode(
  config: GithubOAuthConfig,
  code: string,
  redirectUri: string,
): Promise<string> {
  const tokenBody = await requestJson(new URL("/login/oauth/access_token", config.oauthUrl), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_id: config.clientId,
      client_secret: config.clientSecret,
      code,
      redirect_uri: redirectUri,
    }),
  });
  const token = TokenResponseSchema.safeParse(tokenBody);
  if (!token.success) throw new DomainError("bad_gateway", "GitHub sent an unexpected token response");
  if ("error" in token.data) {
    throw new DomainError(
      "bad_gateway",
      token.data.error_description ?? `GitHub refused the login: ${token.data.error}`,
    );
  }
  return token.data.access_token;
}

/** Reads who a token belongs to, with their primary verified e-mail when the profile hides it. */
export async function fetchProfile(config: GithubOAuthConfig, accessToken: string): Promise<GithubProfile> {
  const auth = { authorization: `Bearer ${accessToken}` };
  const profile = ProfileSchema.safeParse(
    await requestJson(new URL("/user", config.apiUrl), { headers: auth }),
  );
  if (!profile.success) throw new DomainError("bad_gateway", "GitHub sent an unexpected profile");
  let email = profile.data.email ?? null;
  if (!email) {
    const emails = EmailsSchema.safeParse(
      await requestJson(new URL("/user/emails", config.apiUrl), { headers: auth }).catch(() => []),
    );
    email = emails.success ? (emails.data.find((e) => e.primary && e.verified)?.email ?? null) : null;
  }
  return { id: profile.data.id, login: profile.data.login, email };
}

async function requestJson(url: URL, init: RequestInit): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers: { accept: "application/json", "user-agent": "Ensemble", ...init.headers },
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new DomainError("bad_gateway", "Could not reach GitHub. Please try again.");
  }
  if (!response.ok) throw new DomainError("bad_gateway", `GitHub answered ${response.status}`);
  return response.json().catch(() => {
    throw new DomainError("bad_gateway", "GitHub sent a response that is not JSON");
  });
}
