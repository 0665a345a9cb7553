import type { PrSync, PullRequest } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { applyPrSync, isArrivalForHost, newestFirst, pendingCount, prsInTab } from "./prList";

const SESSION = "s-1";

function pr(id: string, extra: Partial<PullRequest> = {}): PullRequest {
  return {
    id,
    sessionId: SESSION,
    title: `PR ${id}`,
    description: "",
    author: "Ada",
    authorId: "user-ada",
    sourceBranch: `pr-${id}`,
    targetBranch: "main",
    status: "pending",
    language: "javascript",
    files: ["src/main.js"],
    createdAt: "2026-01-01T10:00:00.000Z",
    reviewedAt: null,
    reviewedBy: null,
    comments: null,
    prNumber: null,
    prUrl: null,
    ...extra,
  };
}

const one = (type: Exclude<PrSync["type"], "pr-sync" | "pr-cleared">, p: PullRequest): PrSync => ({
  type,
  sessionId: SESSION,
  pr: p,
});

describe("applyPrSync", () => {
  const a = pr("a");
  const b = pr("b");

  it("pr-sync replaces every PR, pr-cleared removes them all", () => {
    expect(applyPrSync([a], { type: "pr-sync", sessionId: SESSION, prs: [b] })).toEqual([b]);
    expect(applyPrSync([a, b], { type: "pr-cleared", sessionId: SESSION })).toEqual([]);
  });

  it("adds a new PR, and ignores an added event for an id it knows", () => {
    expect(applyPrSync([a], one("pr-added", b))).toEqual([a, b]);
    const before = [a];
    const stale = pr("a", { title: "changed" });
    expect(applyPrSync(before, one("pr-added", stale))).toBe(before);
  });

  it.each(["pr-updated", "pr-approved", "pr-rejected", "pr-changes-requested"] as const)(
    "%s replaces the PR with that id in place, or adds it when unknown",
    (type) => {
      const changed = pr("a", { status: "approved", reviewedBy: "Host" });
      expect(applyPrSync([a, b], one(type, changed))).toEqual([changed, b]);
      expect(applyPrSync([b], one(type, changed))).toEqual([b, changed]);
    },
  );

  it("pr-deleted removes the PR, and changes nothing for an unknown id", () => {
    expect(applyPrSync([a, b], one("pr-deleted", a))).toEqual([b]);
    const before = [b];
    expect(applyPrSync(before, one("pr-deleted", a))).toBe(before);
  });

  it("review-requested adds the PR only when it is not known", () => {
    expect(applyPrSync([], one("review-requested", a))).toEqual([a]);
    const before = [a];
    expect(applyPrSync(before, one("review-requested", pr("a", { title: "x" })))).toBe(before);
  });
});

describe("pendingCount", () => {
  it("counts only the PRs waiting for review", () => {
    expect(pendingCount([])).toBe(0);
    const prs = [
      pr("1"),
      pr("2", { status: "approved" }),
      pr("3"),
      pr("4", { status: "rejected" }),
      pr("5", { status: "changes-requested" }),
      pr("6", { status: "merged" }),
    ];
    expect(pendingCount(prs)).toBe(2);
  });

  it("follows the events: up on an added PR, down when it is reviewed", () => {
    const added = applyPrSync([], one("pr-added", pr("a")));
    expect(pendingCount(added)).toBe(1);
    expect(pendingCount(applyPrSync(added, one("pr-approved", pr("a", { status: "approved" }))))).toBe(0);
  });
});

describe("the panel's tabs", () => {
  it("puts pending PRs in Pending Reviews and every other status in Reviewed PRs, newest first", () => {
    const old = pr("old", { createdAt: "2026-01-01T09:00:00.000Z" });
    const fresh = pr("fresh", { createdAt: "2026-01-02T09:00:00.000Z" });
    const done = pr("done", { status: "changes-requested" });
    expect(prsInTab([old, done, fresh], "pending").map((p) => p.id)).toEqual(["fresh", "old"]);
    expect(prsInTab([old, done, fresh], "reviewed").map((p) => p.id)).toEqual(["done"]);
  });

  it("sorts an unreadable date last", () => {
    const bad = pr("bad", { createdAt: "not a date" });
    expect(newestFirst([bad, pr("ok")]).map((p) => p.id)).toEqual(["ok", "bad"]);
  });
});

describe("isArrivalForHost", () => {
  const theirs = pr("a", { authorId: "guest-1" });

  it("announces someone else's new pending PR, by added or by review request", () => {
    expect(isArrivalForHost([], one("pr-added", theirs), "user-host")).toBe(theirs);
    expect(isArrivalForHost([theirs], one("review-requested", theirs), "user-host")).toBe(theirs);
  });

  it("stays quiet for a known id, our own PR, a reviewed PR or another event", () => {
    expect(isArrivalForHost([theirs], one("pr-added", theirs), "user-host")).toBeNull();
    expect(isArrivalForHost([], one("pr-added", theirs), "guest-1")).toBeNull();
    const approved = pr("b", { authorId: "guest-1", status: "approved" });
    expect(isArrivalForHost([], one("pr-added", approved), "user-host")).toBeNull();
    expect(isArrivalForHost([], one("pr-updated", theirs), "user-host")).toBeNull();
  });
});
