/** Where the e2e suite runs the production server and the fake GitHub beside it. */
export const E2E = {
  appPort: Number(process.env.E2E_PORT ?? 3100),
  githubPort: Number(process.env.E2E_GITHUB_PORT ?? 3101),
  githubClientId: "e2e-client",
  githubClientSecret: "e2e-client-secret",
  githubLogin: "octocat-e2e",
  /** A personal access token the fake GitHub accepts for githubLogin (REST and git). */
  githubToken: "ghp_e2e_token_0123456789",
} as const;

export const APP_URL = `http://127.0.0.1:${E2E.appPort}`;
export const GITHUB_URL = `http://127.0.0.1:${E2E.githubPort}`;
