import { splitSyncMessage } from "@ensemble/collab";
import { describe, expect, it } from "vitest";
import { DomainError } from "../../errors";
import { AssemblyBudget, PartAssembler, STALLED_MS } from "./syncParts";

const message = (length: number, seed = 1) => Uint8Array.from({ length }, (_, i) => (i * seed + 7) % 251);
/** Parts of at most 100 bytes (68 of content each). */
const partsOf = (whole: Uint8Array) => splitSyncMessage(whole, 100);

/** The refusal `receive` throws, as code and message. */
function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("not refused");
}

function setup(budgetBytes = 10_000, maxBytes = 5_000) {
  let now = 0;
  const budget = new AssemblyBudget(budgetBytes);
  const assembler = () => new PartAssembler(budget, maxBytes, () => now);
  return { budget, assembler, tick: (ms: number) => (now += ms) };
}

describe("PartAssembler", () => {
  it("passes a whole message through untouched, and joins consecutive parts into theirs", () => {
    const { budget, assembler } = setup();
    const parts = assembler();
    const whole = Uint8Array.of(2, 1, 0);
    expect(parts.receive(whole)).toBe(whole);
    const large = message(300);
    const split = partsOf(large);
    expect(split).toHaveLength(5);
    const answers = split.map((p) => parts.receive(p));
    expect(answers.slice(0, -1)).toEqual([undefined, undefined, undefined, undefined]);
    expect(answers.at(-1)).toEqual(large);
    expect(budget.bytes).toBe(0);
  });

  it("refuses a part out of order, frees its buffer, and drops the rest of that stream unread", () => {
    const { budget, assembler } = setup();
    const parts = assembler();
    const [p0, p1, p2, p3] = partsOf(message(300));
    parts.receive(p0 as Uint8Array);
    expect(budget.bytes).toBe(300);
    expect(refusal(() => parts.receive(p2 as Uint8Array))).toMatchObject({ code: "invalid_message" });
    expect(budget.bytes).toBe(0);
    expect(parts.receive(p1 as Uint8Array)).toBeUndefined();
    expect(parts.receive(p3 as Uint8Array)).toBeUndefined();
    // The next stream joins.
    const next = message(200, 3);
    const answers = partsOf(next).map((p) => parts.receive(p));
    expect(answers.at(-1)).toEqual(next);
  });

  it("refuses a part of another stream, and one without its first", () => {
    const { assembler } = setup();
    const parts = assembler();
    const [a0] = partsOf(message(300));
    const [, b1] = partsOf(message(400));
    expect(refusal(() => parts.receive(b1 as Uint8Array)).message).toMatch(/without the parts before it/);
    parts.receive(a0 as Uint8Array);
    expect(refusal(() => parts.receive(b1 as Uint8Array)).message).toMatch(/where part 1 was due/);
  });

  it("refuses a whole message in the middle of a stream, with the stream", () => {
    const { budget, assembler } = setup();
    const parts = assembler();
    const [p0, p1] = partsOf(message(300));
    parts.receive(p0 as Uint8Array);
    expect(refusal(() => parts.receive(Uint8Array.of(2, 1, 0))).code).toBe("invalid_message");
    expect(budget.bytes).toBe(0);
    // After it, whole messages and a part without its first are taken and refused as ever.
    expect(parts.receive(Uint8Array.of(2, 1, 0))).toEqual(Uint8Array.of(2, 1, 0));
    expect(refusal(() => parts.receive(p1 as Uint8Array)).code).toBe("invalid_message");
  });

  it("refuses a message over the document's cap before holding anything", () => {
    const { budget, assembler } = setup(100_000, 5_000);
    const parts = assembler();
    const [p0] = partsOf(message(5_001));
    expect(refusal(() => parts.receive(p0 as Uint8Array)).code).toBe("update_refused");
    expect(budget.bytes).toBe(0);
  });

  it("refuses parts that hold more or fewer bytes than their message says", () => {
    const { budget, assembler } = setup();
    const parts = assembler();
    // Parts of 68 and 52 bytes claiming a 100-byte message (byte 3 is the length, < 128): the second overflows it.
    const claiming = (whole: Uint8Array, total: number) =>
      partsOf(whole).map((p) => {
        const forged = p.slice();
        forged[3] = total;
        return forged;
      });
    const over = claiming(message(120), 100);
    parts.receive(over[0] as Uint8Array);
    expect(refusal(() => parts.receive(over[1] as Uint8Array)).message).toMatch(/more bytes/);
    // Parts of 68 and 42 bytes claiming 111: one byte never comes.
    const under = claiming(message(110), 111);
    parts.receive(under[0] as Uint8Array);
    expect(refusal(() => parts.receive(under[1] as Uint8Array)).message).toMatch(/fewer bytes/);
    expect(budget.bytes).toBe(0);
  });

  it("starts again at a first part, dropping a stream left unfinished", () => {
    const { budget, assembler } = setup();
    const parts = assembler();
    const [stale] = partsOf(message(300));
    parts.receive(stale as Uint8Array);
    const fresh = message(250, 5);
    const answers = partsOf(fresh).map((p) => parts.receive(p));
    expect(answers.at(-1)).toEqual(fresh);
    expect(budget.bytes).toBe(0);
  });

  it("frees a dropped stream's buffer (its transport closed)", () => {
    const { budget, assembler } = setup();
    const parts = assembler();
    const [p0, p1] = partsOf(message(300));
    parts.receive(p0 as Uint8Array);
    parts.drop();
    expect(budget.bytes).toBe(0);
    expect(refusal(() => parts.receive(p1 as Uint8Array)).code).toBe("invalid_message");
  });
});

describe("AssemblyBudget", () => {
  it("refuses a stream past the bound until one ends, or one stalls", () => {
    const { budget, assembler, tick } = setup(1_000, 600);
    const [first, second, third] = [assembler(), assembler(), assembler()];
    const [a0, a1] = partsOf(message(500));
    const [b0] = partsOf(message(400));
    const [c0] = partsOf(message(300));
    first.receive(a0 as Uint8Array);
    second.receive(b0 as Uint8Array);
    expect(budget.bytes).toBe(900);
    expect(refusal(() => third.receive(c0 as Uint8Array)).code).toBe("rate_limited");
    second.drop();
    expect(third.receive(c0 as Uint8Array)).toBeUndefined();
    expect(budget.bytes).toBe(800);

    // The first goes on; the third stalls, and gives its bytes up to a new stream that needs them.
    tick(STALLED_MS - 1);
    first.receive(a1 as Uint8Array);
    expect(refusal(() => second.receive(b0 as Uint8Array)).code).toBe("rate_limited");
    tick(1);
    expect(second.receive(b0 as Uint8Array)).toBeUndefined();
    expect(budget.bytes).toBe(900);
    expect(third.isStalled(STALLED_MS)).toBe(false);
  });
});
