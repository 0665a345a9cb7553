import { GIT_MESSAGES, GIT_STORAGE_KEYS } from "@ensemble/protocol";
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkFields, readStoredTarget } from "./credentials";

describe("checkFields", () => {
  it("asks for every field first, then for a token that is not blank", () => {
    expect(checkFields({ token: "", owner: "", repo: "" })).toEqual({
      ok: false,
      message: GIT_MESSAGES.allFieldsRequired,
    });
    expect(checkFields({ token: "t", owner: "octo", repo: " " })).toMatchObject({
      message: GIT_MESSAGES.allFieldsRequired,
    });
    expect(checkFields({ token: "   ", owner: "octo", repo: "demo" })).toMatchObject({
      message: GIT_MESSAGES.tokenRequired,
    });
  });

  it("applies GitHub's naming rules and trims what it accepts", () => {
    expect(checkFields({ token: "t", owner: "-octo", repo: "demo" })).toMatchObject({ ok: false });
    expect(checkFields({ token: "t", owner: "octo", repo: "demo.git" })).toMatchObject({ ok: false });
    expect(checkFields({ token: " ghp_1 ", owner: " octo ", repo: "demo" })).toEqual({
      ok: true,
      target: { token: "ghp_1", owner: "octo", repo: "demo" },
    });
  });
});

describe("readStoredTarget", () => {
  afterEach(() => vi.unstubAllGlobals());

  const stubStorage = (items: Record<string, string>) =>
    vi.stubGlobal("window", { localStorage: { getItem: (key: string) => items[key] ?? null } });

  it("needs all three keys, valid", () => {
    stubStorage({ [GIT_STORAGE_KEYS.githubToken]: "t", [GIT_STORAGE_KEYS.gitRepoOwner]: "octo" });
    expect(readStoredTarget()).toBeNull();
    stubStorage({
      [GIT_STORAGE_KEYS.githubToken]: "t",
      [GIT_STORAGE_KEYS.gitRepoOwner]: "octo",
      [GIT_STORAGE_KEYS.gitRepoName]: "../etc",
    });
    expect(readStoredTarget()).toBeNull();
    stubStorage({
      [GIT_STORAGE_KEYS.githubToken]: "t",
      [GIT_STORAGE_KEYS.gitRepoOwner]: "octo",
      [GIT_STORAGE_KEYS.gitRepoName]: "demo",
    });
    expect(readStoredTarget()).toEqual({ token: "t", owner: "octo", repo: "demo" });
  });

  it("reads nothing when storage is unavailable", () => {
    vi.stubGlobal("window", {
      get localStorage(): Storage {
        throw new Error("SecurityError");
      },
    });
    expect(readStoredTarget()).toBeNull();
  });
});
