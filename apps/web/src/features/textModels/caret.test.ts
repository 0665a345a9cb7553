import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import {
  type RelativeSelection,
  readSelectionJSON,
  type TextSelection,
  toRelativeSelection,
  toSelectionJSON,
  toTextSelection,
} from "./caret";

type SaveRule = (ytext: Y.Text, selection: TextSelection) => RelativeSelection;

/** What y-monaco did: Yjs's default association, attached to the character on the right. */
const rightAttached: SaveRule = (ytext, { anchor, head }) => ({
  anchor: Y.createRelativePositionFromTypeIndex(ytext, anchor),
  head: Y.createRelativePositionFromTypeIndex(ytext, head),
});

const START = "function main() {\n  return 1;\n}\n";
/** Every typist starts at the end of the first line, as in the e2e test. */
const CARET = START.indexOf("\n");

/** mulberry32: a small seeded generator, so a failing order can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One editor: a Y.Doc and a caret, kept the way binding.ts keeps Monaco's selection. The
 * caret is saved before every transaction that is not our own keystroke and restored once a
 * remote change has been applied to the text.
 */
class Typist {
  readonly doc = new Y.Doc();
  readonly text = this.doc.getText("main.js");
  readonly outbox: Uint8Array[] = [];
  caret = CARET;
  private saved: RelativeSelection | null = null;
  private isTyping = false;

  constructor(
    readonly words: string[],
    save: SaveRule,
    initial: Uint8Array,
  ) {
    // Loaded before the caret is tracked: the caret starts in the loaded text.
    Y.applyUpdate(this.doc, initial);
    this.doc.on("beforeAllTransactions", () => {
      if (!this.isTyping) this.saved = save(this.text, { anchor: this.caret, head: this.caret });
    });
    this.text.observe((_event, transaction) => {
      if (transaction.origin === this || !this.saved) return;
      this.caret = toTextSelection(this.text, this.saved)?.head ?? this.caret;
    });
    this.doc.on("update", (update: Uint8Array, origin: unknown) => {
      if (origin === this) this.outbox.push(update);
    });
  }

  get keystrokes(): string {
    return this.words.join("");
  }

  type(char: string): void {
    this.isTyping = true;
    this.doc.transact(() => this.text.insert(this.caret, char), this);
    this.isTyping = false;
    this.caret += char.length;
  }

  receive(update: Uint8Array): void {
    Y.applyUpdate(this.doc, update, "remote");
  }
}

/**
 * Three typists type their words a character at a time while their updates travel with
 * random delays (each link keeps its order, as a socket does); returns the converged text.
 */
function typeConcurrently(seed: number, save: SaveRule): { text: string; typists: Typist[] } {
  const rand = seededRandom(seed);
  const words = ["A", "B", "C"].map((letter) => [0, 1, 2, 3, 4].map((n) => `${letter}${n}q `));
  const origin = new Y.Doc();
  origin.getText("main.js").insert(0, START);
  const initial = Y.encodeStateAsUpdate(origin);
  const typists = words.map((w) => new Typist(w, save, initial));

  const links = typists.flatMap((from) =>
    typists.filter((to) => to !== from).map((to) => ({ from, to, queue: [] as Uint8Array[] })),
  );
  const pending = typists.map((t) => [...t.keystrokes]);
  const post = () => {
    for (const t of typists) {
      for (const update of t.outbox.splice(0)) {
        for (const link of links) if (link.from === t) link.queue.push(update);
      }
    }
  };
  const busy = () => links.filter((l) => l.queue.length > 0);
  while (pending.some((p) => p.length > 0) || busy().length > 0) {
    const typing = typists.filter((_, i) => (pending[i]?.length ?? 0) > 0);
    const delivering = busy();
    if (typing.length > 0 && (delivering.length === 0 || rand() < 0.5)) {
      const typist = typing[Math.floor(rand() * typing.length)];
      const char = typist && pending[typists.indexOf(typist)]?.shift();
      if (typist && char) typist.type(char);
    } else {
      const link = delivering[Math.floor(rand() * delivering.length)];
      const update = link?.queue.shift();
      if (link && update) link.to.receive(update);
    }
    post();
  }
  const texts = typists.map((t) => t.text.toString());
  expect(new Set(texts).size, "all three texts equal").toBe(1);
  return { text: texts[0] ?? "", typists };
}

/** The words typed that do not appear whole in the typed region (the end of the first line). */
function brokenWords(text: string, typists: Typist[]): string[] {
  const line = text.slice(0, text.indexOf("\n"));
  return typists.flatMap((t) => t.words).filter((word) => !line.includes(word));
}

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

describe("three typists at the same caret", () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: each typist's keystrokes stay one run, and every keystroke is kept`, () => {
      const { text, typists } = typeConcurrently(seed, toRelativeSelection);
      const typed = text.slice(CARET, text.indexOf("\n"));
      expect(text.slice(0, CARET) + text.slice(CARET + typed.length)).toBe(START);
      expect(typed.length).toBe(typists.reduce((n, t) => n + t.keystrokes.length, 0));
      // Stronger than whole words: each typist's entire input is one contiguous run.
      for (const t of typists) expect(typed, `${t.keystrokes} in ${typed}`).toContain(t.keystrokes);
      expect(brokenWords(text, typists)).toEqual([]);
      for (const t of typists) expect(t.caret).toBe(text.indexOf(t.keystrokes) + t.keystrokes.length);
    });
  }

  it("the old rule (attached to the character on the right) interleaves them, on every seed", () => {
    for (const seed of SEEDS) {
      const { text, typists } = typeConcurrently(seed, rightAttached);
      expect(text.length).toBe(START.length + typists.reduce((n, t) => n + t.keystrokes.length, 0));
      expect(brokenWords(text, typists).length, `seed ${seed}: ${text.split("\n")[0]}`).toBeGreaterThan(0);
    }
  });
});

describe("saving and restoring a selection", () => {
  const setup = (initial: string) => {
    const local = new Y.Doc();
    const remote = new Y.Doc();
    local.getText("t").insert(0, initial);
    Y.applyUpdate(remote, Y.encodeStateAsUpdate(local));
    const insertRemotely = (index: number, text: string) => {
      remote.getText("t").insert(index, text);
      Y.applyUpdate(local, Y.encodeStateAsUpdate(remote, Y.encodeStateVector(local)));
    };
    return { text: local.getText("t"), insertRemotely };
  };

  it("keeps a collapsed caret before a remote insert at the caret, also at the end of the text", () => {
    const { text, insertRemotely } = setup("abc");
    const saved = toRelativeSelection(text, { anchor: 3, head: 3 });
    insertRemotely(3, "XYZ");
    expect(toTextSelection(text, saved)).toEqual({ anchor: 3, head: 3 });
  });

  it("keeps a caret at the very start of the text at the start", () => {
    const { text, insertRemotely } = setup("abc");
    const saved = toRelativeSelection(text, { anchor: 0, head: 0 });
    insertRemotely(0, "XYZ");
    expect(toTextSelection(text, saved)).toEqual({ anchor: 0, head: 0 });
  });

  it("keeps a selection on exactly its characters when others insert at both edges, in either direction", () => {
    const { text, insertRemotely } = setup("0123456789");
    const forward = toRelativeSelection(text, { anchor: 2, head: 5 });
    const backward = toRelativeSelection(text, { anchor: 5, head: 2 });
    insertRemotely(5, "<<");
    insertRemotely(2, ">>");
    expect(text.toString()).toBe("01>>234<<56789");
    expect(toTextSelection(text, forward)).toEqual({ anchor: 4, head: 7 });
    expect(toTextSelection(text, backward)).toEqual({ anchor: 7, head: 4 });
  });

  it("leaves the caret where its character was when someone deletes that character", () => {
    const { text } = setup("abcdef");
    const saved = toRelativeSelection(text, { anchor: 3, head: 3 });
    text.delete(1, 3);
    expect(toTextSelection(text, saved)).toEqual({ anchor: 1, head: 1 });
  });

  it("round-trips through awareness JSON and rejects malformed peers' selections", () => {
    const { text } = setup("abcdef");
    const saved = toRelativeSelection(text, { anchor: 1, head: 4 });
    const wire = JSON.parse(JSON.stringify(toSelectionJSON(saved))) as unknown;
    const read = readSelectionJSON(wire);
    expect(read && toTextSelection(text, read)).toEqual({ anchor: 1, head: 4 });
    expect(readSelectionJSON(null)).toBeNull();
    expect(readSelectionJSON({ anchor: {}, head: "x" })).toBeNull();
    expect(readSelectionJSON({ anchor: { item: { client: "a", clock: 1 } }, head: {} })).toBeNull();
  });
});
