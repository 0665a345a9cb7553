import { decodeSyncPart, isSyncPart, type SyncPart } from "@ensemble/collab";
import { WORKSPACE_LIMITS, WORKSPACE_MESSAGES } from "@ensemble/protocol";
import { DomainError } from "../../errors";

/** Bytes being joined from parts across every connection of this process, at most. */
export const MAX_ASSEMBLING_BYTES = 64 * 1024 * 1024;

/** A stream without a part for this long gives its bytes up to a stream that needs them. */
export const STALLED_MS = 30_000;

/** Why a part stream could not start: the process is joining as much as it may. */
export const ASSEMBLY_BUSY = "The server is receiving other large changes: yours is asked for again shortly";

/**
 * The bytes every connection's part stream holds, bounded: a stream reserves its message's
 * whole length when its first part arrives (its buffer is that long), and gives it back once
 * joined or dropped. When the bound is reached, streams stalled for `STALLED_MS` are dropped
 * to make room; if that is not enough, the new stream is refused.
 */
export class AssemblyBudget {
  private reserved = 0;
  private readonly holders = new Set<PartAssembler>();

  constructor(readonly maxBytes: number = MAX_ASSEMBLING_BYTES) {}

  /** Bytes reserved by streams in progress now. */
  get bytes(): number {
    return this.reserved;
  }

  reserve(holder: PartAssembler, bytes: number, now: number): boolean {
    if (this.reserved + bytes > this.maxBytes) {
      for (const other of this.holders) if (other.isStalled(now)) other.drop();
    }
    if (this.reserved + bytes > this.maxBytes) return false;
    this.reserved += bytes;
    this.holders.add(holder);
    return true;
  }

  release(holder: PartAssembler, bytes: number): void {
    this.reserved -= bytes;
    this.holders.delete(holder);
  }
}

interface Stream {
  count: number;
  next: number;
  received: number;
  buffer: Uint8Array;
  lastPartAt: number;
}

/**
 * Joins one connection's part messages (`splitSyncMessage`) into the sync message they
 * carry, which the room then handles like any other. Only consecutive parts of one message
 * join: a part out of order or unlike the first, a message over the document's cap, or a
 * whole message in the middle of a stream refuses the stream whole and frees its buffer; the
 * rest of a refused stream is then dropped unread, until the next whole message or first part.
 */
export class PartAssembler {
  private stream: Stream | undefined;
  private isDiscarding = false;

  constructor(
    private readonly budget: AssemblyBudget,
    /** The longest message the parts may carry: one the room could take. */
    private readonly maxBytes: number = WORKSPACE_LIMITS.maxDocumentBytes,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The message to handle for `message`: itself when it is whole, the joined message on a
   * stream's last part, or undefined (a part, more to come). Throws a DomainError when it is
   * refused, having kept nothing of the stream.
   */
  receive(message: Uint8Array): Uint8Array | undefined {
    // The hot path (a keystroke's update): a byte and two fields compared.
    if (!isSyncPart(message)) {
      this.isDiscarding = false;
      if (this.stream) this.refuse("invalid_message", "a sync message came in the middle of a part stream");
      return message;
    }
    let part: SyncPart;
    try {
      part = decodeSyncPart(message);
    } catch (error) {
      return this.refuse("invalid_message", `malformed sync part: ${String(error)}`);
    }
    return part.index === 0 ? this.begin(part) : this.extend(part);
  }

  /** Drops the stream in progress (its transport closed, its connection left, or it stalled). */
  drop(): void {
    if (!this.stream) return;
    this.budget.release(this, this.stream.buffer.byteLength);
    this.stream = undefined;
  }

  isStalled(now: number): boolean {
    return this.stream !== undefined && now - this.stream.lastPartAt >= STALLED_MS;
  }

  private begin({ count, total, chunk }: SyncPart): Uint8Array | undefined {
    // A new stream replaces one left unfinished: that one can never complete (parts are
    // consecutive), and a resync after a refused part starts again from its first.
    this.drop();
    this.isDiscarding = false;
    if (total > this.maxBytes) this.refuse("update_refused", WORKSPACE_MESSAGES.documentTooLarge);
    const now = this.now();
    if (!this.budget.reserve(this, total, now)) this.refuse("rate_limited", ASSEMBLY_BUSY);
    this.stream = { count, next: 0, received: 0, buffer: new Uint8Array(total), lastPartAt: now };
    return this.take(this.stream, chunk);
  }

  private extend({ index, count, total, chunk }: SyncPart): Uint8Array | undefined {
    const { stream } = this;
    if (!stream) {
      if (this.isDiscarding) return undefined;
      return this.refuse("invalid_message", `part ${index} came without the parts before it`);
    }
    if (index !== stream.next || count !== stream.count || total !== stream.buffer.byteLength) {
      return this.refuse(
        "invalid_message",
        `part ${index} of ${count} came where part ${stream.next} was due`,
      );
    }
    stream.lastPartAt = this.now();
    return this.take(stream, chunk);
  }

  private take(stream: Stream, chunk: Uint8Array): Uint8Array | undefined {
    const { buffer } = stream;
    if (stream.received + chunk.byteLength > buffer.byteLength) {
      return this.refuse("invalid_message", "the parts hold more bytes than their message");
    }
    buffer.set(chunk, stream.received);
    stream.received += chunk.byteLength;
    stream.next += 1;
    if (stream.next < stream.count) return undefined;
    if (stream.received !== buffer.byteLength) {
      return this.refuse("invalid_message", "the parts hold fewer bytes than their message");
    }
    this.drop();
    return buffer;
  }

  private refuse(code: "invalid_message" | "update_refused" | "rate_limited", message: string): never {
    this.drop();
    this.isDiscarding = true;
    throw new DomainError(code, message);
  }
}
