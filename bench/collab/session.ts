import * as Y from "yjs";
import { type BenchClient, type Counters, connectClient, type SystemId } from "./transports";
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

/**
 * One benchmark session (shape S1): two typists and one watcher on the same document. Every
 * insert is remembered by (client id, first clock); when another client's doc applies an
 * update covering that clock, the delay since the local apply is one latency sample.
 */
export class BenchSession {
  readonly clients: BenchClient[];
  private readonly typists: Typist[];
  private readonly probes = new Map<number, Map<number, Probe>>();
  private measuring = false;

  constructor(
    system: SystemId,
    url: string,
    name: string,
    seed: number,
    private readonly counters: Counters,
    private readonly samples: Samples,
  ) {
    this.clients = [0, 1, 2].map(() => connectClient(system, url, name, counters));
    this.clients.forEach((client, index) => {
      client.doc.on("update", (update: Uint8Array, origin: unknown) => {
        if (origin !== LOCAL && this.measuring) this.record(index, update);
      });
    });
    this.typists = this.clients
      .slice(0, 2)
      .map((c, i) => new Typist(c.doc, c.awareness, seed * 2 + i, (k) => this.remember(i, k)));
  }

  async ready(seedText: string): Promise<void> {
    await Promise.all(this.clients.map((c) => c.synced));
    const first = this.clients[0] as BenchClient;
    // Same content everywhere: a small file a pair would be editing (notes: ~2 kB doc).
    if (seedText) first.doc.transact(() => first.doc.getText(FILE).insert(0, seedText), LOCAL);
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
    const texts = this.clients.map((c) => c.doc.getText(FILE).toString());
    return texts.every((t) => t === texts[0]);
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
