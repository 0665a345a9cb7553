import { describe, expect, it } from "vitest";
import { relativeTime } from "./relativeTime";

const NOW = Date.parse("2026-03-31T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe("relativeTime", () => {
  it("says seconds, minutes and hours, singular and plural", () => {
    expect(relativeTime(ago(1 * S), NOW)).toBe("1 second ago");
    expect(relativeTime(ago(59 * S), NOW)).toBe("59 seconds ago");
    expect(relativeTime(ago(60 * S), NOW)).toBe("1 minute ago");
    expect(relativeTime(ago(59 * M + 59 * S), NOW)).toBe("59 minutes ago");
    expect(relativeTime(ago(H), NOW)).toBe("1 hour ago");
    expect(relativeTime(ago(23 * H), NOW)).toBe("23 hours ago");
  });

  it("counts days under 30, then months", () => {
    expect(relativeTime(ago(D), NOW)).toBe("1 day ago");
    expect(relativeTime(ago(29 * D + 23 * H), NOW)).toBe("29 days ago");
    expect(relativeTime(ago(30 * D), NOW)).toBe("1 month ago");
    expect(relativeTime(ago(95 * D), NOW)).toBe("3 months ago");
  });

  it("reads a time under a second, or ahead of our clock, as just now; nonsense as nothing", () => {
    expect(relativeTime(ago(400), NOW)).toBe("just now");
    expect(relativeTime(ago(-5 * M), NOW)).toBe("just now");
    expect(relativeTime("yesterday-ish", NOW)).toBe("");
  });
});
