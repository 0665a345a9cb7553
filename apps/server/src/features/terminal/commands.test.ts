import { describe, expect, it } from "vitest";
import { CommandRegistry } from "./commands";

const noop = async () => {};

describe("CommandRegistry", () => {
  it("lists the registered commands in help, in the order they came", () => {
    const registry = new CommandRegistry();
    registry.register({ name: "run", summary: "run it", execute: noop });
    registry.register({ name: "checkout-all", summary: "a long name", execute: noop });
    expect(registry.helpText()).toBe(
      ["Available commands:", "  run     run it", "  checkout-all a long name"].join("\n"),
    );
  });

  it("finds a command whatever the case typed, and answers an unknown one with the help", () => {
    const registry = new CommandRegistry();
    registry.register({ name: "git", summary: "version control", execute: noop });
    expect(registry.find("GIT")?.name).toBe("git");
    expect(registry.find("pr")).toBeUndefined();
    expect(registry.unknown("pr")).toEqual([
      { type: "error", content: "Unknown command: pr. Type 'help' for available commands." },
      { type: "output", content: registry.helpText() },
    ]);
  });

  it("refuses a name taken twice or not one lowercase word", () => {
    const registry = new CommandRegistry();
    registry.register({ name: "git", summary: "", execute: noop });
    expect(() => registry.register({ name: "git", summary: "", execute: noop })).toThrow(/twice/);
    expect(() => registry.register({ name: "Git Push", summary: "", execute: noop })).toThrow(/one word/);
  });
});
