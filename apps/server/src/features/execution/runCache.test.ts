import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../logger";
import { RunCache } from "./runCache";
import type { LocalRuntime } from "./runtimes";

const cpp: LocalRuntime = {
  id: "python",
  language: "c++",
  version: "12.2.0",
  aliases: [],
  defaultFile: "main.cpp",
  extensions: ["cpp"],
  compile: ["/usr/bin/g++", "-o", "{out}/main", "{sources}"],
  run: ["{out}/main"],
  env: {},
  extraFiles: [],
  limits: {},
};
const files = [
  { name: "src/main.cpp", content: Buffer.from("int main() {}") },
  { name: "src/a.h", content: Buffer.from("#define A 1") },
];
const program = (bytes: number) => [{ path: "main", mode: 0o755, content: Buffer.alloc(bytes, 7) }];

describe("RunCache", () => {
  let root: string;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), "run-cache-"));
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  it("keys a compile by its session, toolchain and every file, header included", () => {
    const key = RunCache.key("s1", cpp, files);
    expect(RunCache.key("s1", cpp, files)).toBe(key);
    expect(RunCache.key("s2", cpp, files)).not.toBe(key);
    expect(RunCache.key("s1", { ...cpp, version: "13.1.0" }, files)).not.toBe(key);
    const header = [files[0], { name: "src/a.h", content: Buffer.from("#define A 2") }];
    expect(RunCache.key("s1", cpp, header as typeof files)).not.toBe(key);
    const renamed = [files[0], { name: "src/b.h", content: Buffer.from("#define A 1") }];
    expect(RunCache.key("s1", cpp, renamed as typeof files)).not.toBe(key);
  });

  it("gives back what it kept, on disk, and drops the least recently used past its bound", async () => {
    const cache = new RunCache(root, 3000, createLogger("silent"));
    await cache.put("a", program(1000));
    await cache.put("b", program(1000));
    expect((await cache.get("a"))?.[0]).toMatchObject({ path: "main", mode: 0o755 });
    expect((await cache.get("a"))?.[0]?.content.equals(Buffer.alloc(1000, 7))).toBe(true);
    expect((await fs.readdir(root)).sort()).toEqual(["a.json", "b.json"]);
    // "a" was used last, so "b" goes when "c" needs room.
    await cache.put("c", program(1000));
    expect(await cache.get("b")).toBeUndefined();
    expect(await cache.get("a")).toBeDefined();
    expect(cache.size).toBeLessThanOrEqual(3000);
    // An entry larger than the whole cache is not kept.
    await cache.put("huge", program(4000));
    expect(await cache.get("huge")).toBeUndefined();
  });

  it("starts empty: what an earlier process left is removed", async () => {
    await fs.writeFile(path.join(root, "stale.json"), "[]");
    const cache = new RunCache(root, 3000, createLogger("silent"));
    expect(await cache.get("stale")).toBeUndefined();
    expect(await fs.readdir(root)).toEqual([]);
  });
});
