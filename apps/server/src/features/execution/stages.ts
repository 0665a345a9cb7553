import type { StreamName } from "./capture";

/**
 * A compiled language's run is one sandbox holding two stages: a small shell compiles, then
 * prints a marker on stdout and on stderr, then runs the program (see `compileThenRun`). The
 * marker carries a per-run random nonce, which the source cannot know, and the compile's exit
 * code. This splits each stream at its marker: what came before is the compile's output, what
 * comes after is the program's, and the marker itself reaches no one.
 */
export class StageSplitter {
  private readonly prefix: Buffer;
  private readonly end: Buffer;
  /** A successful compile's exported files, gathered between its marker and the end marker. */
  private exported: Buffer[] | undefined;
  private exportedBytes = 0;
  private readonly phase: Record<StreamName, "compile" | "run"> = { stdout: "compile", stderr: "compile" };
  private readonly held: Record<StreamName, Buffer> = { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) };
  private code: number | undefined;

  constructor(
    nonce: string,
    private readonly sink: {
      /** Output of one stage, in order per stream. */
      output(stage: "compile" | "run", stream: StreamName, chunk: Buffer): void;
      /** The compile ended with `code`: called once, at the first marker of either stream. */
      compiled(code: number): void;
      /**
       * The files a successful compile left in `{out}`, when the script exports them: called
       * once, before the program's output; undefined when they were more than `maxBytes`.
       */
      exported?(files: Artifact[] | undefined): void;
    },
    private readonly exporting = false,
    private readonly maxBytes = 0,
  ) {
    this.prefix = Buffer.from(markerPrefix(nonce));
    this.end = Buffer.from(`${markerPrefix(nonce)}end\x1e`);
  }

  /** Whether a marker arrived, and with which exit code of the compile. */
  get compileCode(): number | undefined {
    return this.code;
  }

  push(stream: StreamName, chunk: Buffer): void {
    if (this.exported && stream === "stdout") {
      this.collect(chunk);
      return;
    }
    if (this.phase[stream] === "run") {
      this.sink.output("run", stream, chunk);
      return;
    }
    const buffer = this.held[stream].length > 0 ? Buffer.concat([this.held[stream], chunk]) : chunk;
    this.held[stream] = Buffer.alloc(0);
    const at = buffer.indexOf(this.prefix);
    if (at >= 0) {
      const end = buffer.indexOf(MARK, at + this.prefix.length);
      const digits = buffer.subarray(at + this.prefix.length, end < 0 ? undefined : end).toString("latin1");
      if (end < 0 && /^\d{0,3}$/.test(digits)) {
        // The marker's end is in the next chunk.
        if (at > 0) this.sink.output("compile", stream, buffer.subarray(0, at));
        this.held[stream] = buffer.subarray(at);
        return;
      }
      if (end >= 0 && /^\d{1,3}$/.test(digits)) {
        if (at > 0) this.sink.output("compile", stream, buffer.subarray(0, at));
        this.phase[stream] = "run";
        if (this.code === undefined) {
          this.code = Number(digits);
          this.sink.compiled(this.code);
        }
        const rest = buffer.subarray(end + 1);
        if (stream === "stdout" && this.exporting && digits === "0") {
          this.exported = [];
          this.collect(rest);
        } else if (rest.length > 0) this.sink.output("run", stream, rest);
        return;
      }
    }
    // Hold back a tail that may be the start of a marker split across chunks.
    const keep = partialPrefixLength(buffer, this.prefix);
    if (buffer.length > keep) this.sink.output("compile", stream, buffer.subarray(0, buffer.length - keep));
    if (keep > 0) this.held[stream] = buffer.subarray(buffer.length - keep);
  }

  /** Gathers the exported files up to their end marker; what follows is the program's. */
  private collect(chunk: Buffer) {
    const parts = this.exported ?? [];
    const last = parts.at(-1);
    // The end marker may straddle the previous chunk and this one.
    const window = last ? Buffer.concat([last.subarray(-this.end.length), chunk]) : chunk;
    parts.push(chunk);
    this.exportedBytes += chunk.length;
    this.exported = parts;
    if (window.indexOf(this.end) < 0) return;
    this.exported = undefined;
    const block = Buffer.concat(parts);
    const at = block.indexOf(this.end, Math.max(0, block.length - chunk.length - this.end.length));
    const files =
      this.exportedBytes > this.maxBytes * 1.4 ? undefined : parseExport(block.subarray(0, at), this.prefix);
    this.sink.exported?.(files);
    const rest = block.subarray(at + this.end.length);
    if (rest.length > 0) this.sink.output("run", "stdout", rest);
  }

  /** The end of the run: a tail held back as a possible marker was the compile's output after all. */
  flush(): void {
    for (const stream of ["stdout", "stderr"] as const) {
      const rest = this.held[stream];
      this.held[stream] = Buffer.alloc(0);
      if (rest.length > 0) this.sink.output(this.phase[stream], stream, rest);
    }
  }
}

/** A file a compile left for its program: its path under `{out}`, mode and content. */
export interface Artifact {
  path: string;
  mode: number;
  content: Buffer;
}

/** The export block: for each file, a marker `file-<octal mode>-<path>`, then its base64. */
function parseExport(block: Buffer, prefix: Buffer): Artifact[] | undefined {
  const files: Artifact[] = [];
  const text = block.toString("latin1");
  const head = `${prefix.toString("latin1")}file-`;
  for (const piece of text.split(head).slice(1)) {
    const close = piece.indexOf("\x1e");
    const match = /^([0-7]{3,4})-\.\/(.+)$/s.exec(piece.slice(0, close));
    if (close < 0 || !match?.[1] || !match[2]) return undefined;
    files.push({
      path: match[2],
      mode: Number.parseInt(match[1], 8),
      content: Buffer.from(piece.slice(close + 1), "base64"),
    });
  }
  return files;
}

/** The record separator that opens and closes a marker. */
const MARK = 0x1e;

function markerPrefix(nonce: string): string {
  return `\x1eENSEMBLE-${nonce}-`;
}

/** The length of the longest tail of `buffer` that is a proper prefix of `prefix`. */
function partialPrefixLength(buffer: Buffer, prefix: Buffer): number {
  for (let length = Math.min(buffer.length, prefix.length - 1); length > 0; length -= 1) {
    if (buffer.subarray(buffer.length - length).equals(prefix.subarray(0, length))) return length;
  }
  return 0;
}

/** Quotes one word for the POSIX shell: inside single quotes nothing is special but the quote. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The shell script of a compiled run (`sh -c`): the compile with its own CPU limit and no
 * stdin, the marker with its exit code on both streams, and, when it succeeded, the program
 * with the run's CPU limit in its place (exec, so signals and the exit code are the program's).
 */
export function compileThenRun(options: {
  nonce: string;
  compile: readonly string[];
  run: readonly string[];
  compileCpuSeconds: number;
  runCpuSeconds: number;
  /**
   * Export what the compile left in `{out}` on stdout after its marker (files below this
   * size each), so the server can keep it for a re-run (see runCache.ts).
   */
  exportMaxFileBytes?: number | undefined;
}): string {
  const words = (argv: readonly string[]) => argv.map(shellQuote).join(" ");
  const nonce = shellQuote(options.nonce);
  const marker = `printf '\\036ENSEMBLE-%s-%s\\036' ${nonce} "$s"`;
  const exporting =
    options.exportMaxFileBytes === undefined
      ? []
      : [
          // find, stat and base64 are Debian's essential findutils and coreutils, under /usr.
          `(cd /tmp/out && find . -type f -size -${Math.ceil(options.exportMaxFileBytes / 1024)}k | while IFS= read -r f; do ` +
            `printf '\\036ENSEMBLE-%s-file-%s-%s\\036' ${nonce} "$(stat -c %a -- "$f")" "$f"; base64 -w0 -- "$f"; done) </dev/null`,
          `printf '\\036ENSEMBLE-%s-end\\036' ${nonce}`,
        ];
  return [
    `(ulimit -t ${options.compileCpuSeconds}; exec ${words(options.compile)}) </dev/null`,
    "s=$?",
    marker,
    `${marker} >&2`,
    `[ "$s" -eq 0 ] || exit 0`,
    ...exporting,
    `ulimit -t ${options.runCpuSeconds}`,
    `exec ${words(options.run)}`,
  ].join("\n");
}
