import { CLIENT_EVENTS, type ClientEventName } from "@ensemble/protocol";

/** One malformed socket event: a name (not always a string), its arguments, and whether it asks for an ack. */
export interface FuzzEvent {
  name: unknown;
  args: unknown[];
  withAck: boolean;
  /** Sent as a raw packet: socket.io's client refuses to send reserved names and non-strings. */
  isRaw: boolean;
}

/** What a fuzzed event may name: the session it has not joined, and one that does not exist. */
export interface FuzzTargets {
  notJoined: string;
  missing: string;
}

const RESERVED = ["disconnect", "connect", "connect_error", "disconnecting", "newListener", "removeListener"];
const STREAM_EVENTS = new Set<string>(["yjsSync", "yjsAwareness"]);
const EVENT_NAMES = Object.keys(CLIENT_EVENTS) as ClientEventName[];

/**
 * A payload of each event about session `s`, to be broken: the record's type makes every
 * event of the catalogue have one.
 */
const SAMPLES: Record<ClientEventName, (s: string) => unknown> = {
  joinSession: (s) => s,
  leaveSession: (s) => s,
  getParticipants: (s) => s,
  getLanguageState: (s) => s,
  languageUpdate: (s) => ({ sessionId: s, language: "python" }),
  sessionEnding: (s) => ({ sessionId: s }),
  reopenSession: (s) => ({ sessionId: s }),
  getSessionSettings: (s) => ({ sessionId: s }),
  setSessionSettings: (s) => ({ sessionId: s, completions: false }),
  yjsSync: () => new Uint8Array([0, 0]),
  yjsAwareness: () => new Uint8Array([0]),
  createFile: (s) => ({ sessionId: s, path: "fuzz.js", kind: "file", content: "x" }),
  renamePath: (s) => ({ sessionId: s, from: "src/main.js", to: "moved.js" }),
  deletePath: (s) => ({ sessionId: s, path: "src/main.js" }),
  restorePath: (s) => ({ sessionId: s, path: "lib", files: [], folders: ["lib"] }),
  runCode: (s) => ({ sessionId: s, file: "src/main.js" }),
  terminalCommand: (s) => ({ sessionId: s, command: "clear" }),
  getTerminalHistory: (s) => s,
  runInput: (s) => ({ sessionId: s, line: "fuzz" }),
  closeRunInput: (s) => ({ sessionId: s }),
  stopRun: (s) => ({ sessionId: s }),
  setRunInputAccess: (s) => ({ sessionId: s, othersMayType: true }),
  gitOperation: (s) => ({ sessionId: s, operation: { op: "commit", message: "fuzz" } }),
  createPR: (s) => ({ sessionId: s, title: "fuzz" }),
  reviewPR: (s) => ({ sessionId: s, prId: "1", action: "approve" }),
  requestPRSync: (s) => s,
  getPRDiff: (s) => ({ sessionId: s, prId: "1" }),
  rtcReady: (s) => ({ sessionId: s, media: { isMuted: true, isVideoOff: true, isScreenSharing: false } }),
  rtcLeave: (s) => ({ sessionId: s }),
  rtcOffer: (s) => ({ sessionId: s, receiverId: "p", sdp: "v=0" }),
  rtcAnswer: (s) => ({ sessionId: s, receiverId: "p", sdp: "v=0" }),
  rtcIceCandidate: (s) => ({ sessionId: s, receiverId: "p", candidate: { candidate: "c" } }),
  rtcRequestConnection: (s) => ({ sessionId: s, targetId: "p" }),
  audioToggled: (s) => ({ sessionId: s, isMuted: true }),
  videoToggled: (s) => ({ sessionId: s, isVideoOff: true }),
  screenSharingStarted: (s) => ({ sessionId: s }),
  screenSharingEnded: (s) => ({ sessionId: s }),
  sendChat: (s) => ({ sessionId: s, text: "fuzz" }),
  getChatHistory: (s) => ({ sessionId: s, before: 1 }),
  setRole: (s) => ({ sessionId: s, participantId: "guest-x", role: "viewer" }),
  transferHost: (s) => ({ sessionId: s, participantId: "guest-x" }),
  removeParticipant: (s) => ({ sessionId: s, participantId: "guest-x" }),
  setLock: (s) => ({ sessionId: s, isLocked: true }),
  lobbyDecision: (s) => ({ sessionId: s, participantId: "guest-x", admit: true }),
  getShareLinks: (s) => ({ sessionId: s }),
  getReplayTimeline: (s) => ({ sessionId: s }),
  seekReplay: (s) => ({ sessionId: s, at: 0 }),
  restoreVersion: (s) => ({ sessionId: s, at: 0 }),
  lspOpen: (s) => ({ sessionId: s, server: "clangd" }),
  lspCompletion: (s) => ({
    sessionId: s,
    path: "src/main.c",
    digest: "00000000:0",
    position: { line: 0, character: 0 },
  }),
  lspHover: (s) => ({
    sessionId: s,
    path: "src/main.c",
    digest: "00000000:0",
    position: { line: 0, character: 0 },
  }),
  lspDefinition: (s) => ({
    sessionId: s,
    path: "src/main.c",
    digest: "00000000:0",
    position: { line: 0, character: 0 },
  }),
  lspSignatureHelp: (s) => ({
    sessionId: s,
    path: "src/main.c",
    digest: "00000000:0",
    position: { line: 0, character: 0 },
  }),
  lspRename: (s) => ({
    sessionId: s,
    path: "src/main.c",
    digest: "00000000:0",
    position: { line: 0, character: 0 },
    newName: "x",
  }),
  lspFormat: (s) => ({
    sessionId: s,
    path: "src/main.c",
    digest: "00000000:0",
    tabSize: 2,
    insertSpaces: true,
  }),
};

export const hasAck = (event: ClientEventName) => "ack" in CLIENT_EVENTS[event];

/** Malformed socket events from a seeded generator: the same seed gives the same events. */
export class EventFuzzer {
  constructor(
    private readonly random: () => number,
    private readonly targets: FuzzTargets,
  ) {}

  private int(max: number): number {
    return Math.floor(this.random() * max);
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** A value of any JSON-ish kind, binary included, nested up to `depth`. */
  value(depth = 2): unknown {
    const kinds = depth > 0 ? 10 : 8;
    switch (this.int(kinds)) {
      case 0:
        return null;
      case 1:
        return this.random() < 0.5;
      case 2:
        return this.pick([0, -1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, this.int(1e9)]);
      case 3:
        return this.string();
      case 4:
        return undefined;
      case 5:
        return this.bytes(this.int(64));
      case 6:
        return this.pick(["", " ", "\u0000", "src/main.js", "../../etc/passwd", "__proto__", "constructor"]);
      case 7:
        return this.targets.missing;
      case 8:
        return Array.from({ length: this.int(4) }, () => this.value(depth - 1));
      default:
        return Object.fromEntries(
          Array.from({ length: this.int(4) }, () => [
            this.pick(["sessionId", "path", "x", "__proto__"]),
            this.value(depth - 1),
          ]),
        );
    }
  }

  string(): string {
    const length = this.pick([0, 1, 8, 65, 300, 5000]);
    return Array.from({ length }, () => String.fromCharCode(this.int(0x2fff))).join("");
  }

  bytes(length: number): Uint8Array {
    return Uint8Array.from({ length }, () => this.int(256));
  }

  /** A broken Yjs message: random bytes, a known message type with a garbage body, or too large. */
  yjsGarbage(): Uint8Array {
    const roll = this.int(10);
    if (roll === 0) return this.bytes(600 * 1024);
    if (roll < 4) return Uint8Array.of(this.int(3), ...this.bytes(1 + this.int(200)));
    return this.bytes(1 + this.int(this.pick([8, 512, 8192])));
  }

  /** One malformed event, with `metered` false for Yjs (which the rate gate lets through). */
  next(): FuzzEvent & { metered: boolean } {
    const roll = this.random();
    if (roll < 0.04)
      return { name: this.pick(RESERVED), args: [this.value()], withAck: false, isRaw: true, metered: true };
    if (roll < 0.06)
      return { name: this.pick([42, null, ["x"]]), args: [], withAck: false, isRaw: true, metered: true };
    if (roll < 0.12) {
      const name = this.pick([
        "noSuchEvent",
        "",
        "JOINSESSION",
        "__proto__",
        "toString",
        this.string().slice(0, 20),
      ]);
      return { name, args: [this.value()], withAck: this.random() < 0.7, isRaw: false, metered: true };
    }
    const event = this.pick(EVENT_NAMES);
    const metered = !STREAM_EVENTS.has(event);
    // Mostly as the catalogue says; sometimes a missing ack, or one an event does not take.
    const withAck = this.random() < 0.85 ? hasAck(event) : !hasAck(event);
    return { name: event, args: this.payload(event), withAck, isRaw: false, metered };
  }

  /** The arguments of a broken `event`: never a payload its schema accepts for a joined session. */
  private payload(event: ClientEventName): unknown[] {
    if (STREAM_EVENTS.has(event)) return this.random() < 0.8 ? [this.yjsGarbage()] : [this.value()];
    // A join names only a session that does not exist: any other is open to everyone.
    const session =
      event === "joinSession"
        ? this.targets.missing
        : this.pick([this.targets.notJoined, this.targets.missing]);
    const sample = SAMPLES[event](session);
    const mutate = (change: (o: Record<string, unknown>, key: string) => void) => {
      if (typeof sample !== "object" || sample === null) return this.value();
      const copy: Record<string, unknown> = { ...sample };
      change(copy, this.pick(Object.keys(copy)));
      return copy;
    };
    switch (this.int(8)) {
      case 0:
        return [this.value()];
      case 1:
        return [mutate((o, key) => delete o[key])];
      case 2:
        return [mutate((o) => Object.assign(o, { [this.string().slice(0, 8) || "extra"]: this.value() }))];
      case 3:
        return [mutate((o, key) => Object.assign(o, { [key]: this.value() }))];
      case 4:
        return [mutate((o, key) => Object.assign(o, { [key]: "x".repeat(100_000 + this.int(400_000)) }))];
      case 5:
        return [];
      case 6:
        return [sample, this.value(), this.value()];
      default:
        return [sample];
    }
  }
}
