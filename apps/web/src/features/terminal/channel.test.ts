import { describe, expect, it } from "vitest";
import { failureEntry } from "./channel";

const refused = (code: string, message: string) => ({ ok: false as const, error: { code, message } });

describe("failureEntry", () => {
  it("shows nothing for a success, or for a failed run the server already showed everyone", () => {
    expect(failureEntry({ ok: true, data: null }, true)).toBeNull();
    expect(failureEntry(refused("execution_failed", "Execution failed: sandbox"), true)).toBeNull();
  });

  it("shows a refusal nobody else saw, in the spec's execution wording for runs", () => {
    expect(failureEntry(refused("run_in_progress", "Code is already running."), true)).toEqual({
      type: "error",
      content: "Execution failed: Code is already running.",
    });
    expect(failureEntry(refused("invalid_payload", "Command is too long"), false)).toEqual({
      type: "error",
      content: "Command is too long",
    });
  });

  it("says when the server did not answer", () => {
    expect(failureEntry(refused("timeout", "no answer"), true)?.content).toBe(
      "Error executing code: the server did not answer.",
    );
    expect(failureEntry(refused("offline", "offline"), false)?.content).toBe(
      "Command failed: you are offline.",
    );
  });
});
