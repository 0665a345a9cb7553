import type { Awareness } from "y-protocols/awareness";
import * as Y from "yjs";
import { between, seededRandom } from "./random";

/**
 * The root text every Hocuspocus and y-websocket client edits (they have no workspace). Our
 * server names a file's text by the file's id, found with `fileIdAt` once synced.
 */
export const FILE = "main.js";

/** Origin of the typist's own edits, so a receiver can tell remote updates apart. */
export const LOCAL = Symbol("local");

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** What one keystroke did: inserted clocks [clock, clock + length) of `clientId`, or a delete. */
export interface Keystroke {
  clientId: number;
  clock: number;
  length: number;
  /** When the timetable wanted it, and when it was applied locally (performance.now()). */
  scheduledAt: number;
  sentAt: number;
}

/**
 * A simulated typist (notes §5.3): words of 3-8 characters 60-150 ms apart, 0.2-1.0 s pauses
 * between words, which averages about 5 characters per second. 88 % single-character inserts,
 * 10 % backspaces, 2 % pastes of 20-200 characters; 80 % at the typist's own cursor, 20 % at a
 * random place. Each keystroke is one Yjs transaction and one awareness (cursor) update.
 */
export class Typist {
  private readonly random: () => number;
  private cursor = 0;
  private wordLeft = 0;
  private nextAt = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly doc: Y.Doc,
    private readonly awareness: Awareness,
    /** The root text this typist edits (a file's id on our server). */
    private readonly textName: string,
    seed: number,
    private readonly onKeystroke: (keystroke: Keystroke) => void,
  ) {
    this.random = seededRandom(seed);
  }

  start(): void {
    this.nextAt = performance.now() + this.random() * 1000;
    this.schedule();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  // The timetable is fixed in advance: a late keystroke does not push the next ones back.
  private schedule() {
    this.timer = setTimeout(
      () => {
        const scheduledAt = this.nextAt;
        this.type(scheduledAt);
        this.nextAt = scheduledAt + this.gap();
        this.schedule();
      },
      Math.max(0, this.nextAt - performance.now()),
    );
  }

  private gap(): number {
    if (this.wordLeft > 0) {
      this.wordLeft -= 1;
      return between(this.random, 60, 150);
    }
    this.wordLeft = between(this.random, 3, 8);
    return between(this.random, 200, 1000);
  }

  private type(scheduledAt: number) {
    const text = this.doc.getText(this.textName);
    if (this.random() < 0.2 || this.cursor > text.length) this.cursor = between(this.random, 0, text.length);
    const roll = this.random();
    const clientId = this.doc.clientID;
    const clock = Y.getState(this.doc.store, clientId);
    const sentAt = performance.now();
    let length = 0;
    if (roll < 0.1 && this.cursor > 0) {
      this.doc.transact(() => text.delete(this.cursor - 1, 1), LOCAL);
      this.cursor -= 1;
    } else {
      const content = roll > 0.98 ? this.paste() : (LETTERS[between(this.random, 0, 25)] as string);
      this.doc.transact(() => text.insert(this.cursor, content), LOCAL);
      this.cursor += content.length;
      length = content.length;
    }
    this.onKeystroke({ clientId, clock, length, scheduledAt, sentAt });
    this.moveCursor(text);
  }

  private paste(): string {
    const size = between(this.random, 20, 200);
    return "const x = 1;\n".repeat(Math.ceil(size / 13)).slice(0, size);
  }

  // y-monaco sends the selection as two relative positions on every cursor move.
  private moveCursor(text: Y.Text) {
    const position = Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(text, this.cursor));
    this.awareness.setLocalStateField("cursor", { anchor: position, head: position });
  }
}
