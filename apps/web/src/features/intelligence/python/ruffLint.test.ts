import { afterEach, describe, expect, it, vi } from "vitest";
import { useIntelligenceSettings } from "../settings";
import type { RuffClient } from "./ruffClient";
import type { RuffDiagnostic } from "./ruffProtocol";

// A stand-in for the few Monaco calls the lint makes: models, their events, and markers.
const fake = vi.hoisted(() => {
  const markers = new Map<unknown, unknown[]>();
  const created: ((model: unknown) => void)[] = [];
  return {
    markers,
    created,
    models: [] as unknown[],
    monaco: {
      MarkerSeverity: { Error: 8, Warning: 4 },
      MarkerTag: { Unnecessary: 1, Deprecated: 2 },
      editor: {
        getModels: () => fake.models,
        onDidCreateModel: (listener: (model: unknown) => void) => {
          created.push(listener);
          return { dispose: () => {} };
        },
        onDidChangeModelLanguage: () => ({ dispose: () => {} }),
        setModelMarkers: (model: unknown, _owner: string, list: unknown[]) => markers.set(model, list),
      },
    },
  };
});
vi.mock("../../../ui/monaco", () => ({ monaco: fake.monaco }));

const { startRuffLint } = await import("./ruffLint");

function pythonModel(text: string) {
  return {
    getLanguageId: () => "python",
    isDisposed: () => false,
    getVersionId: () => 1,
    getValue: () => text,
    onDidChangeContent: () => ({ dispose: () => {} }),
    onWillDispose: () => ({ dispose: () => {} }),
  };
}

const finding = (code: string): RuffDiagnostic => ({
  code,
  message: "m",
  tags: [],
  start: { line: 1, column: 1 },
  end: { line: 1, column: 3 },
});

const ruff = { check: async () => [finding("F401"), finding("F821")] } as unknown as RuffClient;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("Ruff's lint", () => {
  afterEach(() => {
    fake.models.length = 0;
    fake.markers.clear();
    useIntelligenceSettings.getState().set({ diagnostics: true });
  });

  it("marks every Python model, leaving out what the skip rule names", async () => {
    const model = pythonModel("import os");
    fake.models.push(model);
    const lint = startRuffLint(ruff, (code) => code === "F821");
    await settle();
    expect(fake.markers.get(model)).toMatchObject([{ code: "F401", severity: 4, message: "F401 m" }]);
    lint.dispose();
    expect(fake.markers.get(model)).toEqual([]);
  });

  it("clears the markers when diagnostics are switched off, and lints again when on", async () => {
    const model = pythonModel("import os");
    fake.models.push(model);
    const lint = startRuffLint(ruff, () => false);
    await settle();
    expect(fake.markers.get(model)).toHaveLength(2);
    useIntelligenceSettings.getState().set({ diagnostics: false });
    expect(fake.markers.get(model)).toEqual([]);
    useIntelligenceSettings.getState().set({ diagnostics: true });
    await settle();
    expect(fake.markers.get(model)).toHaveLength(2);
    lint.dispose();
  });

  it("does not lint while diagnostics are off", async () => {
    useIntelligenceSettings.getState().set({ diagnostics: false });
    const model = pythonModel("import os");
    fake.models.push(model);
    const lint = startRuffLint(ruff, () => false);
    await settle();
    expect(fake.markers.has(model)).toBe(false);
    lint.dispose();
  });
});
