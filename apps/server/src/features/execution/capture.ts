import { StringDecoder } from "node:string_decoder";

export type StreamName = "stdout" | "stderr";

/**
 * Captures a program's stdout and stderr as bytes, keeping at most `maxBytes` of each, and
 * decodes them once with streaming UTF-8 decoders, so a character split across two chunks
 * survives and invalid bytes become U+FFFD. `output` interleaves both in arrival order.
 */
export class OutputCapture {
  stdout = "";
  stderr = "";
  output = "";
  /** The first stream that went over its cap, if any. */
  overflowed: StreamName | undefined;
  private readonly bytes = { stdout: 0, stderr: 0 };
  private readonly decoders = { stdout: new StringDecoder("utf8"), stderr: new StringDecoder("utf8") };
  private isClosed = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onOverflow: (stream: StreamName) => void,
    /** Each piece of decoded text as it is kept, for a live run's streaming. */
    private readonly onText?: (stream: StreamName, text: string) => void,
  ) {}

  /** Takes one chunk; past the cap the prefix is kept, the rest dropped, and `onOverflow` fires once. */
  push(stream: StreamName, chunk: Buffer): void {
    if (this.isClosed) return;
    const room = Math.max(0, this.maxBytes - this.bytes[stream]);
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length > 0) {
      this.bytes[stream] += kept.length;
      this.append(stream, this.decoders[stream].write(kept));
    }
    if (kept.length < chunk.length && !this.overflowed) {
      this.overflowed = stream;
      this.onOverflow(stream);
    }
  }

  /** Flushes the decoders (an incomplete trailing character becomes U+FFFD); later chunks are ignored. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const stream of ["stdout", "stderr"] as const) this.append(stream, this.decoders[stream].end());
  }

  get truncated(): boolean {
    return this.overflowed !== undefined;
  }

  /** The captured text as a stage result carries it. */
  result(): { stdout: string; stderr: string; output: string; truncated: boolean } {
    return { stdout: this.stdout, stderr: this.stderr, output: this.output, truncated: this.truncated };
  }

  private append(stream: StreamName, text: string) {
    if (!text) return;
    this[stream] += text;
    this.output += text;
    this.onText?.(stream, text);
  }
}
