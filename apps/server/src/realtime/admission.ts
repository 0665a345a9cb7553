import { CLIENT_EVENTS, type ClientEventName, type EventRate } from "@ensemble/protocol";
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { ackOf, refuse, type SocketEvents } from "./handle";
import type { EditorSocket } from "./socket";

/**
 * Each metered class as a token bucket: `perSecond` sustained, plus `burst` more within any
 * 10 s. A person types and clicks far below `event`; a script that floods is cut off.
 */
const BUCKETS: Record<Exclude<EventRate, "stream">, { perSecond: number; burst: number }> = {
  event: { perSecond: 20, burst: 40 },
  command: { perSecond: 5, burst: 15 },
  // ICE candidates come in bursts; the calls feature's own window (400 a 10 s) is the tighter.
  signal: { perSecond: 40, burst: 400 },
};
const BURST_SECONDS = 10;

const isClientEvent = (name: unknown): name is ClientEventName =>
  typeof name === "string" && Object.hasOwn(CLIENT_EVENTS, name);

/** The rate class of a catalogue event. */
function rateOf(event: ClientEventName): EventRate {
  const spec = CLIENT_EVENTS[event];
  return "rate" in spec ? spec.rate : "event";
}

/** A name safe to echo in a refusal, whatever the client sent as one. */
const nameOf = (name: unknown) => (typeof name === "string" ? name : String(name)).slice(0, 64);

/**
 * The gate in front of every event handler (a `socket.use` middleware): an event that is not
 * in the client catalogue, socket.io's reserved names (`disconnect`, `connect`, …) included,
 * is refused as `unknown_event` and reaches no handler; every other event but Yjs counts
 * against its class's bucket for this connection and is refused as `rate_limited` once it is
 * empty (Yjs has its own synchronous `StreamMeter`). An admitted event goes to its handler in
 * `events`; socket.io's own listeners never see it. Buckets are in memory: a connection
 * lives on one node. Metered events are admitted in order (one chain per connection); their
 * handlers then run side by side, as socket.io listeners would.
 */
export function createAdmission(events: SocketEvents) {
  const buckets = new Map(
    Object.entries(BUCKETS).map(([rate, { perSecond, burst }]) => [
      rate,
      new BurstyRateLimiter(
        new RateLimiterMemory({ keyPrefix: `sustained-${rate}`, points: perSecond, duration: 1 }),
        new RateLimiterMemory({ keyPrefix: `burst-${rate}`, points: burst, duration: BURST_SECONDS }),
      ),
    ]),
  );

  /** Seconds until `socket` may send an event of `rate` again: 0 when it may now (counted). */
  async function take(socket: EditorSocket, rate: EventRate): Promise<number> {
    const bucket = buckets.get(rate);
    if (!bucket) return 0;
    try {
      await bucket.consume(socket.id);
      return 0;
    } catch (refusal) {
      // The memory store rejects only with a refusal; anything else waits a whole burst window.
      const ms = refusal instanceof RateLimiterRes ? refusal.msBeforeNext : BURST_SECONDS * 1000;
      return Math.max(1, Math.ceil(ms / 1000));
    }
  }

  return (socket: EditorSocket) => {
    let queue: Promise<void> = Promise.resolve();
    socket.use((packet) => {
      const [name, ...args] = packet as unknown[];
      if (!isClientEvent(name)) {
        refuse(socket, nameOf(name), ackOf(args), "unknown_event", `Unknown event "${nameOf(name)}"`);
        return;
      }
      const rate = rateOf(name);
      if (rate === "stream") return void events.dispatch(socket, name, args);
      queue = queue
        .then(() => take(socket, rate))
        .then((wait) => {
          if (wait === 0) return void events.dispatch(socket, name, args);
          refuse(socket, name, ackOf(args), "rate_limited", `Too many messages: try again in ${wait} s`);
        });
    });
  };
}

/**
 * Yjs messages (sync and awareness) of one connection: a bucket of 1000 that refills at 200 a
 * second. Typing with a held key sends about 60 a second; a script's burst of edits fits.
 */
const STREAM_BUCKET = { perSecond: 200, burst: 1000 };

/**
 * The `stream` class's token bucket for one connection, kept synchronously: a promise per
 * keystroke would slow the hot path.
 */
export class StreamMeter {
  private tokens: number = STREAM_BUCKET.burst;
  private refilledAt = Date.now();

  /** Takes one token; false when the bucket is empty. */
  take(now = Date.now()): boolean {
    const refill = ((now - this.refilledAt) * STREAM_BUCKET.perSecond) / 1000;
    this.tokens = Math.min(STREAM_BUCKET.burst, this.tokens + refill);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Why a Yjs message over the meter was refused. */
export const STREAM_REFUSAL = `More than ${STREAM_BUCKET.perSecond} edits and cursor moves a second: slow down`;
