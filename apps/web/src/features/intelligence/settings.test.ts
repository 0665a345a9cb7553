import { afterEach, describe, expect, it, vi } from "vitest";

/** A fresh settings module over a browser storage that holds `stored` under the settings' key. */
async function settingsWith(stored: string | null) {
  const items = new Map<string, string>();
  if (stored !== null) items.set("ensemble-intelligence", stored);
  vi.stubGlobal("window", {
    localStorage: {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => items.set(key, value),
      removeItem: (key: string) => items.delete(key),
    },
  });
  vi.resetModules();
  return { settings: await import("./settings"), items };
}

describe("code intelligence settings", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("start from what this browser kept", async () => {
    const { settings } = await settingsWith('{"completions":false,"diagnostics":true}');
    expect(settings.useIntelligenceSettings.getState().completions).toBe(false);
    expect(settings.completionsAllowed()).toBe(false);
    expect(settings.diagnosticsShown()).toBe(true);
  });

  it("start on when nothing or something unreadable was kept", async () => {
    for (const stored of [null, "not json", '{"completions":"no"}']) {
      const { settings } = await settingsWith(stored);
      expect(settings.completionsAllowed()).toBe(true);
      expect(settings.diagnosticsShown()).toBe(true);
    }
  });

  it("keep this person's change, and never the session's switch", async () => {
    const { settings, items } = await settingsWith(null);
    settings.useIntelligenceSettings.getState().set({ sessionCompletions: false });
    expect(settings.completionsAllowed()).toBe(false);
    settings.setPersonalSettings({ diagnostics: false });
    expect(settings.diagnosticsShown()).toBe(false);
    expect(JSON.parse(items.get("ensemble-intelligence") ?? "null")).toEqual({
      completions: true,
      diagnostics: false,
    });
  });
});
