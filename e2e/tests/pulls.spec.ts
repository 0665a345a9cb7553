import { E2E, GITHUB_URL } from "../support/env";
import { expect, test } from "../support/fixtures";
import { setCode, Terminal } from "../support/terminal";

test.describe("pull requests", () => {
  test("a guest proposes from the terminal, the host reads the diff, asks for changes, then approves and it opens on GitHub", async ({
    page,
    twoEditors,
    request,
  }) => {
    // A long walk of two browsers (two PRs, a review each, GitHub): minutes on a busy machine.
    test.slow();
    const {
      host,
      guest,
      prepared: repo,
    } = await twoEditors("prhost", {
      prepare: async ({ sessionId }) => {
        const repo = `e2e-pr-${sessionId.slice(0, 8).replace(/[^A-Za-z0-9]/g, "x")}`;
        const created = await request.post(`${GITHUB_URL}/user/repos`, {
          data: { name: repo, private: false },
          headers: { authorization: `token ${E2E.githubToken}` },
        });
        expect(created.status()).toBe(201);
        // The host's browser already holds its GitHub connection (the Git panel stores it so).
        await page.context().addInitScript(
          ([token, owner, name]) => {
            if (!location.protocol.startsWith("http")) return;
            localStorage.setItem("githubToken", token);
            localStorage.setItem("gitRepoOwner", owner);
            localStorage.setItem("gitRepoName", name);
          },
          [E2E.githubToken, E2E.githubLogin, repo] as const,
        );
        return repo;
      },
    });
    const badge = page.getByTestId("pr-pending-badge");
    await expect(badge).toHaveText("0");

    // The host commits the starting point; the guest changes the code and proposes it from the terminal.
    const hostTerminal = new Terminal(page);
    await hostTerminal.commitAll();

    await setCode(guest, 'console.log("hello from the guest");\n', [host]);
    await badge.evaluate((element) => {
      const pulses: [string, number][] = [];
      (window as unknown as { pulses: typeof pulses }).pulses = pulses;
      new MutationObserver(() => pulses.push([element.dataset.pulsing ?? "", performance.now()])).observe(
        element,
        {
          attributeFilter: ["data-pulsing"],
        },
      );
    });
    const guestTerminal = new Terminal(guest.page);
    await guestTerminal.command("pr create Greeting");
    await expect(guestTerminal.entries("output").last()).toContainText(
      "Your pull request is now waiting for review by the host.",
    );
    await expect(badge).toHaveText("1");
    // The badge pulsed for a second when its count changed.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { pulses: [string, number][] }).pulses))
      .toHaveLength(2);
    const [start, end] = await page.evaluate(
      () => (window as unknown as { pulses: [string, number][] }).pulses,
    );
    expect([start?.[0], end?.[0]]).toEqual(["true", "false"]);
    expect((end?.[1] ?? 0) - (start?.[1] ?? 0)).toBeGreaterThan(900);
    // The bound tells a 1 s pulse from one that never ends; timers fire late on a busy machine.
    expect((end?.[1] ?? 0) - (start?.[1] ?? 0)).toBeLessThan(3000);
    const list = page.getByRole("region", { name: "Pull requests" });
    await expect(list.locator("[data-pr-id]")).toHaveCount(1);
    await expect(
      guest.page.getByRole("region", { name: "Pull requests" }).locator("[data-pr-id]"),
    ).toHaveCount(1);

    // The host reads the diff and asks for changes; the guest is told, with the comment.
    await list.locator("[data-pr-id]").first().click();
    const panel = page.getByRole("dialog", { name: "Review pull requests" });
    await expect(panel.getByTestId("pr-diff").first()).toHaveAttribute("data-path", "src/main.js");
    await expect(panel.getByTestId("pr-diff").first()).toContainText("hello from the guest");
    // Escape inside the diff closes the diff, not the panel; focus goes to the PR's row.
    await panel.getByTestId("pr-diff").first().locator(".editor.modified .view-lines").click();
    await page.keyboard.press("Escape");
    await expect(panel).toBeVisible();
    await expect(panel.getByTestId("pr-diff")).toHaveCount(0);
    await expect(panel.getByText("Select a pull request to review")).toBeVisible();
    const firstRow = panel.locator("[data-pr-id] button").first();
    await expect(firstRow).toBeFocused();
    await firstRow.click();
    await expect(panel.getByTestId("pr-diff").first()).toContainText("hello from the guest");
    await panel.getByLabel("Review comment").fill("Say hello to everyone, please.");
    await panel.getByRole("button", { name: "Request Changes" }).click();
    await expect(guest.page.getByText("Say hello to everyone, please.").first()).toBeVisible();
    await expect(badge).toHaveText("0");
    await page.keyboard.press("Escape");

    // A second try from New PR, its four prompts answered, the source branch named by the guest.
    await setCode(guest, 'console.log("hello, everyone");\n', [host]);
    const answers = ["Greeting for everyone", "Now for all.", "feature/greet-all", "main"];
    const asked: string[] = [];
    guest.page.on("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.accept(answers[asked.length - 1]);
    });
    await guest.page
      .getByRole("region", { name: "Pull requests" })
      .getByRole("button", { name: "New PR" })
      .click();
    await expect(badge).toHaveText("1");
    expect(asked).toEqual(["Pull request title", "Description (optional)", "Source branch", "Target branch"]);
    const second = list.locator('[data-pr-id][data-status="pending"]');
    await second.click();
    await expect(panel.getByTestId("pr-diff").first()).toContainText("hello, everyone");
    await expect(panel.getByText("feature/greet-all")).toBeVisible();
    // Approved with a comment: merged into main here, opened on the GitHub stand-in, the comment posted there.
    await panel.getByLabel("Review comment").fill("Lovely, thank you.");
    await panel.getByRole("button", { name: "Approve & Create PR" }).click();
    await expect(page.getByText("Pull request created successfully on GitHub!")).toBeVisible({
      timeout: 20_000,
    });
    const pulls = await request.get(`${GITHUB_URL}/repos/${E2E.githubLogin}/${repo}/pulls`, {
      headers: { authorization: `token ${E2E.githubToken}` },
    });
    const opened = (await pulls.json()) as {
      number: number;
      title: string;
      head: { ref: string };
      base: { ref: string };
    }[];
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ title: "Greeting for everyone", base: { ref: "main" } });
    expect(opened[0]?.head.ref).toBe("feature/greet-all");
    const comments = await request.get(
      `${GITHUB_URL}/repos/${E2E.githubLogin}/${repo}/issues/${opened[0]?.number}/comments`,
      { headers: { authorization: `token ${E2E.githubToken}` } },
    );
    expect(((await comments.json()) as { body: string }[]).map((c) => c.body)).toEqual([
      "Lovely, thank you.",
    ]);
    const files = await request.get(
      `${GITHUB_URL}/repos/${E2E.githubLogin}/${repo}/pulls/${opened[0]?.number}/files`,
      { headers: { authorization: `token ${E2E.githubToken}` } },
    );
    expect(await files.json()).toEqual([{ filename: "src/main.js", status: "modified" }]);
    // Merged into main on our server too.
    await hostTerminal.command("git log");
    await expect(hostTerminal.entries("output").last()).toContainText("Greeting for everyone");
    // The merge is done: the host's detail and the guest's list show it merged (spec §4).
    await expect(panel.getByTestId("pr-status")).toHaveText("Merged");
    await expect(
      guest.page.getByRole("region", { name: "Pull requests" }).locator('[data-status="merged"]'),
    ).toHaveCount(1);
    await page.keyboard.press("Escape");
    await expect(list.locator('[data-status="merged"]')).toHaveCount(1);
  });
});
