import type { MySession } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { describeRow, pageAfterRemoval, relativeTime, sessionPath } from "./mySessions";

const row = (overrides: Partial<MySession> = {}): MySession => ({
  session_id: "abc_DEF-123",
  title: "Pairing",
  role: "host",
  participant_count: 3,
  last_activity_at: "2026-01-01T00:00:00.000Z",
  ended_at: null,
  ...overrides,
});

describe("describeRow", () => {
  it("offers the host of a live session Open, End and Delete", () => {
    expect(describeRow(row())).toEqual({
      roleLabel: "Host",
      peopleLabel: "3 people",
      status: "Live",
      openLabel: "Open",
      openPath: "/code-editor-dashboard/abc_DEF-123",
      canEnd: true,
      canDelete: true,
    });
  });

  it("opens an ended session on its replay, and no longer offers End", () => {
    const view = describeRow(row({ ended_at: "2026-01-02T00:00:00.000Z" }));
    expect(view).toMatchObject({ status: "Ended", openLabel: "Open replay", canEnd: false, canDelete: true });
    expect(view.openPath).toBe("/code-editor-dashboard/abc_DEF-123?replay=1");
  });

  it("gives editors and viewers neither End nor Delete", () => {
    for (const role of ["editor", "viewer"] as const) {
      const view = describeRow(row({ role, participant_count: 1 }));
      expect(view).toMatchObject({ canEnd: false, canDelete: false, peopleLabel: "1 person" });
      expect(view.roleLabel).toBe(role === "editor" ? "Editor" : "Viewer");
    }
  });
});

describe("relativeTime", () => {
  const now = Date.parse("2026-01-10T12:00:00.000Z");
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();
  it("says how long ago, in the largest whole unit", () => {
    expect(relativeTime(ago(10), now, "en")).toBe("just now");
    expect(relativeTime(ago(50), now, "en")).toBe("50 seconds ago");
    expect(relativeTime(ago(5 * 60), now, "en")).toBe("5 minutes ago");
    expect(relativeTime(ago(3 * 3600 + 50), now, "en")).toBe("3 hours ago");
    expect(relativeTime(ago(24 * 3600), now, "en")).toBe("yesterday");
    expect(relativeTime(ago(15 * 24 * 3600), now, "en")).toBe("2 weeks ago");
    expect(relativeTime(ago(400 * 24 * 3600), now, "en")).toBe("last year");
  });
});

describe("pageAfterRemoval", () => {
  it("steps back from a page emptied by a deletion, never before the first", () => {
    expect(pageAfterRemoval(3, 0)).toBe(2);
    expect(pageAfterRemoval(3, 4)).toBe(3);
    expect(pageAfterRemoval(1, 0)).toBe(1);
  });
});

describe("sessionPath", () => {
  it("escapes the id", () => {
    expect(sessionPath("a/b")).toBe("/code-editor-dashboard/a%2Fb");
  });
});
