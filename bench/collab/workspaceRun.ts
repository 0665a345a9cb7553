import { STARTER_CODE } from "@ensemble/protocol";
import { type Summary, summarize } from "../lib/stats";
import { sleep } from "../lib/wait";
import { type LoadConfig, type LoadHooks, type LoadResult, runLoad } from "./loadRun";
import { generateProject } from "./project";
import type { ServerHandle } from "./servers";
import { MAIN_FILE } from "./session";
import { fillWorkspaces, timeJoins } from "./workspaceClients";

export interface WorkspaceConfig {
  /** Files per workspace, `src/main.js` included, and their bytes in all. */
  files: number;
  totalBytes: number;
  /** Joins timed per kind (cold room, loaded room one at a time, loaded room concurrently). */
  joins: number;
  concurrentJoins: number;
  /** One-file and workspace runs alternate this many times. */
  rounds: number;
}

/** Join times of one kind, with the raw samples. */
export interface JoinResult {
  kind: "cold room, one at a time" | "loaded room, one at a time" | "loaded room, concurrently";
  concurrency: number;
  samples: number[];
  summary: Summary;
}

export interface WorkspaceRound {
  oneFile: LoadResult & { joins: JoinResult[] };
  workspace: LoadResult & { joins: JoinResult[] };
}

/**
 * Join-time measurements around a load run: once the sessions are filled and their rooms
 * unloaded, first joiners (the room is read from the database); after the restart and the
 * idle memory probe, new clients into rooms loaded with their three idle clients, one at a
 * time and `concurrentJoins` at a time.
 */
function joinHooks(
  config: WorkspaceConfig,
  fileCount: number,
  joins: JoinResult[],
  fill?: LoadHooks["prepare"],
) {
  const record = async (
    kind: JoinResult["kind"],
    server: ServerHandle,
    ids: string[],
    concurrency: number,
  ) => {
    const samples = await timeJoins(server.url, ids, fileCount, concurrency);
    joins.push({
      kind,
      concurrency,
      samples: samples.map((v) => Math.round(v * 100) / 100),
      summary: summarize(samples),
    });
    const { p50, p99 } = summarize(samples);
    console.log(
      `[joins] ${kind} (${fileCount} files, ${concurrency} at a time): p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
    );
  };
  const hooks: LoadHooks = {
    // First joiners come before the restart: RSS keeps the heap their rooms grew (even once
    // unloaded), which would otherwise inflate the baseline of the memory per session.
    prepare: async (server, names) => {
      await fill?.(server, names);
      // Let the filling sockets' rooms unload (flush and compact) first.
      await sleep(3000);
      await record("cold room, one at a time", server, names.slice(0, config.joins), 1);
    },
    restartAfterPrepare: true,
    idle: async (server, names) => {
      const ids = Array.from({ length: config.joins }, (_, i) => names[i % names.length] as string);
      await record("loaded room, one at a time", server, ids, 1);
      await record("loaded room, concurrently", server, ids, config.concurrentJoins);
      await sleep(2000);
    },
  };
  return hooks;
}

/**
 * The workspace measurements of issue 8, on our server only: the same number of sessions,
 * first with the one file every new session has (today's shape), then each holding a
 * `config.files`-file workspace made through `createFile`, with every typist in a file of
 * its own. Both runs measure join times, memory per idle session and the typing steps.
 */
export async function runWorkspace(load: LoadConfig, config: WorkspaceConfig): Promise<WorkspaceRound[]> {
  // src/main.js keeps its starter text: the created files make up the rest of the bytes.
  const project = generateProject(
    config.files - 1,
    config.totalBytes - Buffer.byteLength(STARTER_CODE.javascript),
  );
  const paths = [MAIN_FILE, ...project.map((f) => f.path)];
  const rounds: WorkspaceRound[] = [];
  for (let round = 1; round <= config.rounds; round++) {
    const oneFileJoins: JoinResult[] = [];
    const oneFile = await runLoad(
      "ours",
      `ours, one file (round ${round})`,
      load,
      {},
      joinHooks(config, 1, oneFileJoins),
    );
    const workspaceJoins: JoinResult[] = [];
    const fill = async (server: ServerHandle, names: string[]) => {
      const started = performance.now();
      await fillWorkspaces(server.url, names, project);
      console.log(
        `[workspace] ${names.length} workspaces of ${config.files} files filled in ${(performance.now() - started).toFixed(0)} ms`,
      );
    };
    const workspace = await runLoad(
      "ours",
      `ours, ${config.files}-file workspace (round ${round})`,
      { ...load, seedText: "", typistFiles: paths },
      {},
      joinHooks(config, config.files, workspaceJoins, fill),
    );
    rounds.push({
      oneFile: { ...oneFile, joins: oneFileJoins },
      workspace: { ...workspace, joins: workspaceJoins },
    });
  }
  return rounds;
}
