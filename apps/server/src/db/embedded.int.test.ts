import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../../test/collabClient";
import { openDatabase } from "./index";

const INDEX = path.join(import.meta.dirname, "index.ts");

// A stand-in for the server: opens the embedded database, commits a row, says so, waits.
const WRITER = `
const { openDatabase } = await import(${JSON.stringify(INDEX)});
const db = await openDatabase({ dataDir: process.argv[1] });
await db.exec("CREATE TABLE kept (note text)");
await db.query("INSERT INTO kept VALUES ($1)", ["committed before SIGKILL"]);
console.log("written");
setInterval(() => {}, 1000);
`;

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await fs.rm(folder, { recursive: true, force: true });
});

async function postmasterPid(dataDir: string): Promise<number> {
  return Number((await fs.readFile(path.join(dataDir, "postmaster.pid"), "utf8")).split("\n")[0]);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("the embedded PostgreSQL", () => {
  it("stops when its server is killed with SIGKILL, and the next start has every committed row", async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-embedded-"));
    folders.push(folder);
    const dataDir = path.join(folder, "postgres");
    const server = spawn(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", WRITER, dataDir],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let output = "";
    server.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    await waitFor(() => output.includes("written"), 30_000, "the row committed");
    const pid = await postmasterPid(dataDir);
    expect(isAlive(pid)).toBe(true);

    server.kill("SIGKILL");
    await waitFor(() => !isAlive(pid), 10_000, "PostgreSQL exited after its server");

    const db = await openDatabase({ dataDir });
    expect(await db.query("SELECT note FROM kept")).toEqual([{ note: "committed before SIGKILL" }]);
    await db.close();
  }, 60_000);

  it("tells its server when PostgreSQL exits on its own", async () => {
    const exits: Error[] = [];
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-embedded-"));
    folders.push(folder);
    const dataDir = path.join(folder, "postgres");
    const db = await openDatabase({ dataDir, onEmbeddedExit: (error) => exits.push(error) });
    process.kill(await postmasterPid(dataDir), "SIGKILL");
    await waitFor(() => exits.length === 1, 10_000, "the exit reported");
    expect(exits[0]?.message).toMatch(/the embedded PostgreSQL exited \((SIGKILL|137)\)/);
    await expect(db.query("SELECT 1")).rejects.toThrow();
    await db.close();
  }, 60_000);

  it("reports no exit for a close, and removes a temporary database's folder", async () => {
    const exits: Error[] = [];
    const db = await openDatabase({ onEmbeddedExit: (error) => exits.push(error) });
    const [row] = await db.query<{ dir: string }>("SELECT current_setting('data_directory') AS dir");
    await db.close();
    expect(exits).toEqual([]);
    await expect(fs.access(row?.dir ?? "/nonexistent")).rejects.toThrow();
  }, 60_000);
});
