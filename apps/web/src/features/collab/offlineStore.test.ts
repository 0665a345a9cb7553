import { describe, expect, it } from "vitest";
import { MAX_OFFLINE_SESSIONS, offlineDbName, touchRecent } from "./offlineStore";

describe("touchRecent", () => {
  it("puts the opened session first without duplicating it", () => {
    expect(touchRecent(["a", "b", "c"], "b")).toEqual({ kept: ["b", "a", "c"], evicted: [] });
  });

  it("keeps the five most recent sessions and evicts the rest", () => {
    expect(MAX_OFFLINE_SESSIONS).toBe(5);
    const { kept, evicted } = touchRecent(["a", "b", "c", "d", "e", "f"], "g");
    expect(kept).toEqual(["g", "a", "b", "c", "d"]);
    expect(evicted).toEqual(["e", "f"]);
  });

  it("names one database per session", () => {
    expect(offlineDbName("demo-session")).toBe("ensemble-doc-demo-session");
  });
});
