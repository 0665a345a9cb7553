import type { Diagnostic } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { LastDiagnostics } from "./diagnostics";

const mark: Diagnostic = { path: "src/main.py", line: 3, severity: "error", message: "NameError" };

describe("LastDiagnostics", () => {
  it("keeps a session's last run's diagnostics until the next run clears them", () => {
    const last = new LastDiagnostics(() => true);
    expect(last.set("s1", "run-1", [mark])).toEqual({ sessionId: "s1", runId: "run-1", diagnostics: [mark] });
    expect(last.of("s1")).toEqual({ sessionId: "s1", runId: "run-1", diagnostics: [mark] });
    expect(last.set("s1", undefined, [])).toEqual({ sessionId: "s1", diagnostics: [] });
    expect(last.of("s1")).toEqual({ sessionId: "s1", diagnostics: [] });
  });

  it("forgets a session whose document is no longer loaded", () => {
    const loaded = new Set(["s1", "s2"]);
    const last = new LastDiagnostics((sessionId) => loaded.has(sessionId));
    last.set("s1", "run-1", [mark]);
    loaded.delete("s1");
    last.set("s2", "run-2", [mark]);
    expect(last.of("s1").diagnostics).toEqual([]);
    expect(last.of("s2").diagnostics).toEqual([mark]);
  });

  it("keeps at most a thousand sessions, the oldest forgotten first", () => {
    const last = new LastDiagnostics(() => true);
    for (let i = 0; i <= 1000; i++) last.set(`s${i}`, `run-${i}`, [mark]);
    expect(last.of("s0").diagnostics).toEqual([]);
    expect(last.of("s1").diagnostics).toEqual([mark]);
    expect(last.of("s1000").diagnostics).toEqual([mark]);
  });
});
