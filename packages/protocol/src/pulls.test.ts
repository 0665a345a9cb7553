import { describe, expect, it } from "vitest";
import { GIT_MESSAGES, isGitBranchName } from "./git";
import { CreatePrSchema } from "./pulls";

describe("isGitBranchName", () => {
  it("takes the names git takes, slashes and non-ASCII letters included", () => {
    for (const name of ["feature", "fix/login", "pr-add-util-1700000000000", "a@b", "été"])
      expect(isGitBranchName(name), name).toBe(true);
  });

  it("refuses what `git check-ref-format --branch` refuses", () => {
    const refused = [
      "",
      "-feature",
      "HEAD",
      "@",
      "a..b",
      "with space",
      "a~1",
      "a^",
      "a:b",
      "a?",
      "a*",
      "a[b",
      "a\\b",
      "a@{1}",
      "/a",
      "a/",
      "a//b",
      "a.",
      ".hidden",
      "a/.b",
      "a.lock",
      "a/b.lock/c",
      "tab\there",
      "del\u007f",
    ];
    for (const name of refused) expect(isGitBranchName(name), JSON.stringify(name)).toBe(false);
  });
});

describe("CreatePrSchema", () => {
  const base = { sessionId: "abc-123", title: "Fix login" };

  it("carries an optional source branch, trimmed", () => {
    expect(CreatePrSchema.parse(base).sourceBranch).toBeUndefined();
    expect(CreatePrSchema.parse({ ...base, sourceBranch: " fix/login " }).sourceBranch).toBe("fix/login");
  });

  it("refuses a source branch git would not take, saying which", () => {
    const parsed = CreatePrSchema.safeParse({ ...base, sourceBranch: "fix..login" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(GIT_MESSAGES.branchNameInvalid("fix..login"));
  });
});
