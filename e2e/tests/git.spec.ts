import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { APIRequestContext } from "@playwright/test";
import { createHostedSession, EditorScreen, signInContext } from "../support/editor";
import { E2E, GITHUB_URL } from "../support/env";
import { expect, test } from "../support/fixtures";
import { setCode } from "../support/terminal";

const execFileAsync = promisify(execFile);

/** git as someone else working on the GitHub stand-in: their own clone, the e2e token. */
function gitAsOther(cwd: string, args: string[]) {
  const basic = Buffer.from(`x-access-token:${E2E.githubToken}`).toString("base64");
  return execFileAsync("git", args, {
    cwd,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: cwd,
      GIT_TERMINAL_PROMPT: "0",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "Other Dev",
      GIT_AUTHOR_EMAIL: "other@example.test",
      GIT_COMMITTER_NAME: "Other Dev",
      GIT_COMMITTER_EMAIL: "other@example.test",
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "http.extraHeader",
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
    },
  });
}

/** Creates an empty repository on the stand-in through its REST API, as its owner would on GitHub. */
async function createRepository(request: APIRequestContext, name: string) {
  const created = await request.post(`${GITHUB_URL}/user/repos`, {
    data: { name, private: false, auto_init: false },
    headers: { authorization: `token ${E2E.githubToken}`, accept: "application/vnd.github+json" },
  });
  expect(created.status()).toBe(201);
}

test.describe("version control with GitHub", () => {
  test("the host connects, commits and pushes, a guest sees the host-only notice, and a pull reaches both editors", async ({
    page,
    twoEditors,
    request,
  }) => {
    const {
      host,
      guest,
      prepared: repo,
    } = await twoEditors("githost", {
      prepare: async ({ sessionId }) => {
        const repo = `e2e-${sessionId.slice(0, 8).replace(/[^A-Za-z0-9]/g, "x")}`;
        await createRepository(request, repo);
        return repo;
      },
    });

    // The guest is told git is the host's; the host sees GitHub Login and the note.
    const guestPanel = guest.page.getByRole("region", { name: "Git" });
    await expect(guestPanel).toContainText("Host-only feature");
    await expect(guestPanel).toContainText("Only the session host can control Git operations.");
    await expect(guestPanel.getByRole("button")).toHaveCount(0);
    const panel = page.getByRole("region", { name: "Git" });
    await expect(panel).toContainText("Please login to GitHub first after creating a new session.");

    // A wrong token is refused with the spec's message, and nothing is kept.
    await panel.getByRole("button", { name: "GitHub Login" }).click();
    const dialog = page.getByRole("dialog", { name: "GitHub Login" });
    await dialog.getByLabel("Personal access token").fill("ghp_not_a_real_token");
    await dialog.getByLabel("Repository owner").fill(E2E.githubLogin);
    await dialog.getByLabel("Repository name").fill(repo);
    await dialog.getByRole("button", { name: "Authenticate" }).click();
    await expect(
      page.getByText("GitHub authentication failed. Please re-authenticate with a valid token."),
    ).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("githubToken"))).toBeNull();

    // The right one connects.
    if (!(await dialog.isVisible())) await panel.getByRole("button", { name: "GitHub Login" }).click();
    await dialog.getByLabel("Personal access token").fill(E2E.githubToken);
    await dialog.getByLabel("Repository owner").fill(E2E.githubLogin);
    await dialog.getByLabel("Repository name").fill(repo);
    await dialog.getByRole("button", { name: "Authenticate" }).click();
    await expect(page.getByText("GitHub authentication successful!")).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("git-user")).toContainText(E2E.githubLogin);

    // Nothing committed yet: the open file is Added; commit it all.
    await expect(page.getByTestId("git-badge")).toHaveText("Added");
    await panel.getByRole("button", { name: "Stage all" }).click();
    await panel.getByLabel("Commit message").fill("First commit");
    await panel.getByRole("button", { name: "Commit" }).click();
    await expect(page.getByTestId("git-badge")).toBeHidden();

    // An edit turns the badge to Modified, for the host and the guest alike.
    await setCode(host, 'console.log("edited for the push");\n', [guest]);
    await expect(page.getByTestId("git-badge")).toHaveText("Modified");
    await expect(guest.page.getByTestId("git-badge")).toHaveText("Modified");
    await panel.getByRole("button", { name: "Stage all" }).click();
    await panel.getByLabel("Commit message").fill("Edit for the push");
    await panel.getByRole("button", { name: "Commit" }).click();
    await expect(page.getByTestId("git-badge")).toBeHidden();
    await panel.getByRole("button", { name: "Push" }).click();
    await expect(page.getByText(`Pushed main to ${E2E.githubLogin}/${repo}.`)).toBeVisible();

    // What arrived on GitHub is what the editors show.
    const work = await fs.mkdtemp(path.join(os.tmpdir(), "e2e-git-"));
    try {
      await gitAsOther(work, ["clone", "--quiet", `${GITHUB_URL}/${E2E.githubLogin}/${repo}.git`, "clone"]);
      const clone = path.join(work, "clone");
      expect(await fs.readFile(path.join(clone, "src/main.js"), "utf8")).toBe(await host.text());
      const { stdout: subjects } = await gitAsOther(clone, ["log", "--format=%s"]);
      expect(subjects.trim().split("\n")).toEqual(["Edit for the push", "First commit"]);

      // Someone else pushes a change; the host pulls it into both editors.
      await fs.writeFile(path.join(clone, "src/main.js"), 'console.log("changed on GitHub");\n');
      await gitAsOther(clone, ["commit", "--quiet", "-am", "Change on GitHub"]);
      await gitAsOther(clone, ["push", "--quiet", "origin", "main"]);
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
    await panel.getByRole("button", { name: "Pull" }).click();
    for (const screen of [host, guest]) {
      await expect.poll(() => screen.text()).toBe('console.log("changed on GitHub");\n');
    }
    await expect(page.getByTestId("git-badge")).toBeHidden();
  });

  test("the host connects with their GitHub login (OAuth consent) instead of pasting a token", async ({
    page,
    request,
  }) => {
    const account = await createHostedSession(request, "oauthhost");
    const repo = `e2e-oauth-${account.sessionId.slice(0, 8).replace(/[^A-Za-z0-9]/g, "x")}`;
    await createRepository(request, repo);
    await signInContext(page.context(), account);
    const host = new EditorScreen(page);
    await host.open(account.sessionId);
    const panel = page.getByRole("region", { name: "Git" });
    await panel.getByRole("button", { name: "GitHub Login" }).click();
    const dialog = page.getByRole("dialog", { name: "GitHub Login" });
    await dialog.getByRole("link", { name: "use my GitHub login" }).click();

    // Back from GitHub's consent: the dialog is open with the token and the login as owner,
    // and the token is no longer in the address.
    await host.waitUntilLive();
    await expect(dialog).toBeVisible();
    expect(new URL(page.url()).hash).toBe("");
    await expect(dialog.getByLabel("Repository owner")).toHaveValue(E2E.githubLogin);
    await expect(dialog.getByLabel("Personal access token")).not.toHaveValue("");
    await dialog.getByLabel("Repository name").fill(repo);
    await dialog.getByRole("button", { name: "Authenticate" }).click();
    await expect(page.getByText("GitHub authentication successful!")).toBeVisible();
    await expect(page.getByTestId("git-user")).toContainText(E2E.githubLogin);
  });

  test("a link with a forged consent fills nothing in and shows none of its text", async ({
    page,
    request,
  }) => {
    const account = await createHostedSession(request, "forgedhost");
    await signInContext(page.context(), account);
    const host = new EditorScreen(page);
    const dialog = page.getByRole("dialog", { name: "GitHub Login" });
    for (const fragment of [
      "githubCode=someone-elses-code",
      "githubError=Your%20repository%20was%20deleted",
    ]) {
      // From another page: a change of the fragment alone would not load the editor again.
      await page.goto("/");
      await page.goto(`/code-editor-dashboard/${account.sessionId}#${fragment}`);
      // The toast shows for 5 s from the page's first render, which a busy machine's sync may outlast.
      await expect(page.getByText("Authentication failed").first()).toBeVisible();
      await host.waitUntilLive();
      await expect(page.getByText(/repository was deleted/)).toHaveCount(0);
      await expect(dialog).toBeHidden();
      expect(new URL(page.url()).hash).toBe("");
    }
    // The old form, a token in the address, is not read at all.
    await page.goto("/");
    await page.goto(`/code-editor-dashboard/${account.sessionId}#githubToken=ghp_attacker&githubLogin=evil`);
    await host.waitUntilLive();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("git-user")).toHaveCount(0);
  });
});
