import { z } from "zod";

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

/** Raised with a message fit for the sign-in page's error toast. */
export class GithubOAuthError extends Error {}

/** The address of GitHub's consent page for our app. */
export function authorizeUrl(config: GithubOAuthConfig, redirectUri: string, state: string): string {
  const url = new URL("/login/oauth/authorize", config.oauthUrl);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    redirect_uri: redirectUri,
    scope: "read:user user:email",
    state,
  }).toString();
  return url.toString();
}

/** Exchanges the callback's code for a token, then reads who it belongs to. */
export async function fetchGithubProfile(
  config: GithubOAuthConfig,
  code: string,
  redirectUri: string,
): Promise<GithubProfile> {
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
  if (!token.success) throw new GithubOAuthError("GitHub sent an unexpected token response");
  if ("error" in token.data) {
    throw new GithubOAuthError(
      token.data.error_description ?? `GitHub refused the login: ${token.data.error}`,
    );
  }
  const auth = { authorization: `Bearer ${token.data.access_token}` };
  const profile = ProfileSchema.safeParse(
    await requestJson(new URL("/user", config.apiUrl), { headers: auth }),
  );
  if (!profile.success) throw new GithubOAuthError("GitHub sent an unexpected profile");
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
    throw new GithubOAuthError("Could not reach GitHub. Please try again.");
  }
  if (!response.ok) throw new GithubOAuthError(`GitHub answered ${response.status}`);
  return response.json().catch(() => {
    throw new GithubOAuthError("GitHub sent a response that is not JSON");
  });
}
