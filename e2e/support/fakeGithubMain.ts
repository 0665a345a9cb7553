import { startFakeGithub } from "../../apps/server/test/fakeGithub";
import { E2E } from "./env";

// Runs as a Playwright webServer: GitHub's OAuth, REST and git on loopback, approving at once.
const user = { id: 4242, login: E2E.githubLogin, email: `${E2E.githubLogin}@example.test` };
const github = await startFakeGithub({
  clientId: E2E.githubClientId,
  clientSecret: E2E.githubClientSecret,
  port: E2E.githubPort,
  user,
  tokens: { [E2E.githubToken]: user },
});
console.log(`fake GitHub on ${github.url}`);
process.on("SIGTERM", () => void github.close().then(() => process.exit(0)));
