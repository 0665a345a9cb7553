import type { Presence } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { isOwnChange, withRole } from "./roleChange";

const person = (id: string, role: Presence["role"]): Presence => ({
  id,
  name: id,
  isHost: role === "host",
  isGuest: false,
  role,
});

describe("withRole", () => {
  it("changes only the named person, keeping isHost in step with the role", () => {
    const host = person("a", "host");
    const viewer = person("b", "viewer");
    expect(withRole(viewer, "b", "editor")).toEqual({ ...viewer, role: "editor", isHost: false });
    expect(withRole(host, "a", "editor")).toEqual({ ...host, role: "editor", isHost: false });
    expect(withRole(viewer, "b", "host").isHost).toBe(true);
    expect(withRole(host, "b", "viewer")).toBe(host);
  });
});

describe("isOwnChange", () => {
  it("is true only for a change of our own role", () => {
    const self = person("me", "viewer");
    expect(isOwnChange(self, "me", "editor")).toBe(true);
    expect(isOwnChange(self, "me", "viewer")).toBe(false);
    expect(isOwnChange(self, "other", "editor")).toBe(false);
    expect(isOwnChange(null, "me", "editor")).toBe(false);
  });
});
