import { PR_MESSAGES } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { askForPr, newPrRequest, PROMPT_DEFAULTS } from "./usePullActions";

/** A prompt that gives the scripted answers in turn and records the questions and defaults. */
function scripted(answers: (string | null)[]) {
  const asked: [string, string][] = [];
  const ask = (question: string, answer: string) => {
    asked.push([question, answer]);
    return answers[asked.length - 1] ?? null;
  };
  return { asked, ask };
}

describe("askForPr", () => {
  it("asks title, description, source and target in turn, offering the spec's branches", () => {
    const prompt = scripted(["  Fix login ", "why", "feature", "main"]);
    expect(askForPr(prompt.ask)).toEqual({
      title: "Fix login",
      description: "why",
      source: "feature",
      target: "main",
    });
    expect(prompt.asked.map(([, answer]) => answer)).toEqual(["", "", PROMPT_DEFAULTS.source, "main"]);
  });

  it("stops at the first cancelled prompt, whichever it is", () => {
    for (let cancelled = 0; cancelled < 4; cancelled++) {
      const answers = ["t", "d", "s", "m"].map((a, i) => (i === cancelled ? null : a));
      const prompt = scripted(answers);
      expect(askForPr(prompt.ask)).toBeNull();
      expect(prompt.asked).toHaveLength(cancelled + 1);
    }
  });

  it("gives an empty title the entity's default", () => {
    expect(askForPr(scripted(["   ", "", "feature", "main"]).ask)?.title).toBe(PR_MESSAGES.defaultTitle);
  });
});

describe("newPrRequest", () => {
  it("sends the source answer as the PR's branch, with the target and description", () => {
    const answers = askForPr(scripted(["Fix login", "why", " fix/login ", "develop"]).ask);
    expect(answers && newPrRequest(answers)).toEqual({
      title: "Fix login",
      description: "why",
      sourceBranch: "fix/login",
      targetBranch: "develop",
    });
  });

  it("leaves out empty answers, so the server names the branch and targets main", () => {
    const answers = askForPr(scripted(["Fix login", "", " ", ""]).ask);
    expect(answers && newPrRequest(answers)).toEqual({ title: "Fix login" });
  });
});
