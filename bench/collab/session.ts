import { fileIdAt } from "@ensemble/collab";
import * as Y from "yjs";
import { SYSTEMS, type SystemId } from "./systems";
import { type BenchClient, type Counters, connectClient } from "./transports";
import { FILE, type Keystroke, LOCAL, Typist } from "./typing";

interface Probe {
  sentAt: number;
  scheduledAt: number;
  /** Bit i is set once client i has applied the keystroke. */
  seen: number;
  expected: number;
}

/** Latency samples (ms) of remote applies: from the local apply, and from the timetable. */
export interface Samples {
  service: number[];
  intended: number[];
  lost: number;
}

/** About 2 kB of code in every document before typing starts (notes §5.3, S4). */
export const SEED_TEXT = "function add(a, b) {\n  return a + b;\n}\n\n".repeat(50);

/** The file both typists edit unless told otherwise: every new session of ours starts with it. */
export const MAIN_FILE = "src/main.js";

/**
 * The root text that holds the file at `path` in a synced doc: our server names a file's text
 * by the file's id; Hocuspocus and y-websocket have no workspace, only the root text FILE.
 */
export function textNameOf(system: SystemId, doc: Y.Doc, path = MAIN_FILE): string {
  if (SYSTEMS[system].protocol !== "ours") return FILE;
  const id = fileIdAt(doc, path);
  if (id === undefined) throw new Error(`no file ${path} in the session`);
  return id;
}

/**
 * One benchmark session (shape S1): two typists and one watcher on the same document, each
 * typist in its own file of `files` (the same file by default; two files of a 200-file
 * workspace in the workspace run). Every insert is remembered by (client id, first clock);
 * when another client's doc applies an update covering that clock, the delay since the local
 * apply is one latency sample.
 */
export class BenchSession {
  readonly clients: BenchClient[];
  private typists: Typist[] = [];
  /** Root texts the typists edit, known once synced. */
  private textNames: string[] = [];
  private readonly probes = new Map<number, Map<number, Probe>>();
  private measuring = false;

  constructor(
    private readonly system: SystemId,
    url: string,
    name: string,
    private readonly seed: number,
    private readonly counters: Counters,
    private readonly samples: Samples,
    private readonly files: readonly string[] = [MAIN_FILE, MAIN_FILE],
  ) {
    this.clients = [0, 1, 2].map(() => connectClient(system, url, name, counters));
    this.clients.forEach((client, index) => {
      client.doc.on("update", (update: Uint8Array, origin: unknown) => {
        if (origin === LOCAL) this.counters.updatesSent += 1;
        else if (this.measuring) this.record(index, update);
      });
    });
  }

  /** Waits for every client's sync, finds the typists' files, then seeds the first one. */
  async ready(seedText: string): Promise<void> {
    await Promise.all(this.clients.map((c) => c.synced));
    const first = this.clients[0] as BenchClient;
    this.textNames = this.files.map((path) => textNameOf(this.system, first.doc, path));
    this.typists = this.clients
      .slice(0, 2)
      .map(
        (c, i) =>
          new Typist(c.doc, c.awareness, this.textNames[i] as string, this.seed * 2 + i, (k) =>
            this.remember(i, k),
          ),
      );
    // Same content everywhere: a small file a pair would be editing (notes: ~2 kB doc).
    const seeded = this.textNames[0] as string;
    if (seedText) first.doc.transact(() => first.doc.getText(seeded).insert(0, seedText), LOCAL);
  }

  startTyping(): void {
    for (const typist of this.typists) typist.start();
  }

  stopTyping(): void {
    for (const typist of this.typists) typist.stop();
  }

  /** Starts (or restarts) counting latency; forgets earlier probes. */
  mark(measuring: boolean): void {
    this.measuring = measuring;
    if (measuring) this.probes.clear();
  }

  /** Keystrokes not yet seen by both other clients; call after the grace period. */
  lostProbes(): number {
    let lost = 0;
    for (const byClock of this.probes.values()) lost += byClock.size;
    return lost;
  }

  isConverged(): boolean {
    return this.textNames.every((name) => {
      const texts = this.clients.map((c) => c.doc.getText(name).toString());
      return texts.every((t) => t === texts[0]);
    });
  }

  close(): void {
    this.stopTyping();
    for (const client of this.clients) client.close();
  }

  private remember(sender: number, keystroke: Keystroke) {
    this.counters.keystrokes += 1;
    if (!this.measuring || keystroke.length === 0) return;
    let byClock = this.probes.get(keystroke.clientId);
    if (!byClock) {
      byClock = new Map();
      this.probes.set(keystroke.clientId, byClock);
    }
    byClock.set(keystroke.clock, {
      sentAt: keystroke.sentAt,
      scheduledAt: keystroke.scheduledAt,
      seen: 0,
      expected: 0b111 & ~(1 << sender),
    });
  }

  private record(receiver: number, update: Uint8Array) {
    const now = performance.now();
    const { from, to } = Y.parseUpdateMeta(update);
    for (const [clientId, start] of from) {
      const byClock = this.probes.get(clientId);
      const end = to.get(clientId) ?? start;
      if (!byClock) continue;
      for (const [clock, probe] of byClock) {
        if (clock < start || clock >= end || probe.seen & (1 << receiver)) continue;
        probe.seen |= 1 << receiver;
        this.samples.service.push(now - probe.sentAt);
        this.samples.intended.push(now - probe.scheduledAt);
        // Fully delivered probes are dropped, so this scan stays short.
        if (probe.seen === probe.expected) byClock.delete(clock);
      }
    }
  }
}
