import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../../logger";
import type { LocalRuntime } from "./runtimes";
import type { Artifact } from "./stages";

/**
 * Compiled programs kept for a re-run of the same sources: a session's second Run Code of an
 * unchanged C++ file skips g++. An entry is keyed by everything the compile depends on (the
 * language, its version and commands, every file's name and content, the entry) and scoped to
 * one session, so nobody ever runs a program another session compiled. Entries live on disk
 * under DATA_DIR, written only from a successful compile, and the oldest used go first once
 * they hold more than `maxBytes` together.
 */
export class RunCache {
  private readonly entries = new Map<string, { file: string; bytes: number }>();
  private totalBytes = 0;
  private readonly ready: Promise<void>;
  private isDisabled = false;

  constructor(
    private readonly root: string,
    private readonly maxBytes: number,
    private readonly logger: Logger,
  ) {
    // What an earlier process left is not known to be whole: start empty.
    this.ready = (async () => {
      await fs.rm(root, { recursive: true, force: true });
      await fs.mkdir(root, { recursive: true });
    })().catch((error: unknown) => {
      logger.warn({ err: error, root }, "run cache: its folder is not usable; compiling every time");
      this.isDisabled = true;
    });
  }

  /** The key of a compile: its scope (a session) and everything its output depends on. */
  static key(scope: string, runtime: LocalRuntime, files: { name: string; content: Buffer }[]): string {
    const hash = createHash("sha256");
    const add = (value: string | Buffer) => {
      hash.update(String(value.length));
      hash.update(":");
      hash.update(value);
    };
    for (const part of [
      scope,
      runtime.language,
      runtime.version,
      ...(runtime.compile ?? []),
      "\0",
      ...runtime.run,
    ])
      add(part);
    for (const [name, value] of Object.entries(runtime.env)) add(`${name}=${value}`);
    // The entry first (it names the program), then every file: a header may change the build.
    for (const file of files) {
      add(file.name);
      add(file.content);
    }
    return hash.digest("hex");
  }

  async get(key: string): Promise<Artifact[] | undefined> {
    await this.ready;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    try {
      const stored = JSON.parse(await fs.readFile(entry.file, "utf8")) as StoredArtifact[];
      // Most recently used last: Map keeps insertion order, so eviction takes the first.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return stored.map((a) => ({ path: a.path, mode: a.mode, content: Buffer.from(a.content, "base64") }));
    } catch (error) {
      this.logger.warn({ err: error }, "run cache: an entry could not be read; compiling again");
      this.forget(key);
      return undefined;
    }
  }

  async put(key: string, artifacts: Artifact[]): Promise<void> {
    await this.ready;
    const stored: StoredArtifact[] = artifacts.map((a) => ({
      path: a.path,
      mode: a.mode,
      content: a.content.toString("base64"),
    }));
    if (this.isDisabled) return;
    const text = JSON.stringify(stored);
    const bytes = Buffer.byteLength(text);
    if (bytes > this.maxBytes) return;
    this.forget(key);
    const file = path.join(this.root, `${key}.json`);
    try {
      await fs.writeFile(file, text, { mode: 0o600 });
    } catch (error) {
      this.logger.warn({ err: error }, "run cache: could not keep a compiled program");
      return;
    }
    this.entries.set(key, { file, bytes });
    this.totalBytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.totalBytes <= this.maxBytes) break;
      this.forget(oldest);
    }
  }

  /** Bytes the cache holds on disk now. */
  get size(): number {
    return this.totalBytes;
  }

  private forget(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
    void fs.rm(entry.file, { force: true });
  }
}

interface StoredArtifact {
  path: string;
  mode: number;
  content: string;
}
