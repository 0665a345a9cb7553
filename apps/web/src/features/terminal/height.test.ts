import { describe, expect, it } from "vitest";
import { clampHeight, heightForKey, TERMINAL_HEIGHT } from "./height";

describe("clampHeight", () => {
  it("keeps heights between 100 and 400 px, 200 by default", () => {
    expect(TERMINAL_HEIGHT.default).toBe(200);
    expect(clampHeight(250)).toBe(250);
    expect(clampHeight(99)).toBe(100);
    expect(clampHeight(-500)).toBe(100);
    expect(clampHeight(401)).toBe(400);
    expect(clampHeight(600)).toBe(400);
    expect(clampHeight(250.6)).toBe(251);
  });

  it("falls back to the default for a height that is not a number", () => {
    expect(clampHeight(Number.NaN)).toBe(200);
    expect(clampHeight(Number.POSITIVE_INFINITY)).toBe(200);
  });
});

describe("heightForKey", () => {
  it("grows with Up, shrinks with Down, within the clamp", () => {
    expect(heightForKey(200, "ArrowUp")).toBe(220);
    expect(heightForKey(200, "ArrowDown")).toBe(180);
    expect(heightForKey(390, "ArrowUp")).toBe(400);
    expect(heightForKey(110, "ArrowDown")).toBe(100);
    expect(heightForKey(200, "PageUp")).toBe(300);
    expect(heightForKey(150, "PageDown")).toBe(100);
    expect(heightForKey(200, "Home")).toBe(100);
    expect(heightForKey(200, "End")).toBe(400);
  });

  it("ignores other keys", () => {
    expect(heightForKey(200, "a")).toBeNull();
    expect(heightForKey(200, "ArrowLeft")).toBeNull();
  });
});
