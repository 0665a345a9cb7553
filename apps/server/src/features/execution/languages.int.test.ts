import fs from "node:fs";
import path from "node:path";
import { LANGUAGE_RECORDS, type LanguageRecord, StageResultSchema } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildUser, startTestServer, type TestServer } from "../../../test/harness";
import type { LanguageCases } from "./languageCases/cases";

/**
 * Every language record against the real sandbox, through POST /api/v2/execute as a Piston
 * client sends it: its starter, stdin, args and exit code, and a syntax (or compile) error that
 * names its line. A language is one record plus one case file in languageCases/<id>.ts.
 */

const CASES_DIR = path.join(import.meta.dirname, "languageCases");

const CasesSchema = z.object({
  echo: z.string(),
  broken: z.object({ source: z.string(), line: z.number().int().positive() }),
}) satisfies z.ZodType<LanguageCases>;

/** Piston's answer; `run` is absent when a compiled language failed to compile. */
const AnswerSchema = z.object({
  language: z.string(),
  version: z.string(),
  compile: StageResultSchema.optional(),
  run: StageResultSchema.optional(),
});
type Answer = z.infer<typeof AnswerSchema>;

const records: readonly LanguageRecord[] = LANGUAGE_RECORDS;

/** A record's case file: named by its id, or by its first extension where the id has `+` or `#` (`cpp.ts`). */
function caseFile(record: LanguageRecord): string {
  return /[+#]/.test(record.id) ? (record.extensions[0] ?? record.id) : record.id;
}

async function loadCases(id: string): Promise<LanguageCases | undefined> {
  const record = records.find((r) => r.id === id);
  const file = path.join(CASES_DIR, `${record ? caseFile(record) : id}.ts`);
  if (!fs.existsSync(file)) return undefined;
  const module: unknown = await import(/* @vite-ignore */ file);
  return CasesSchema.parse(z.object({ default: z.unknown() }).parse(module).default);
}

/** At most `concurrency` tasks at once, a freed place handed straight to the next in line. */
function limiter(concurrency: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < concurrency) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

/** The error's line as compilers and interpreters print it: `main.rb:2:`, `line 2`, `Line: 2`. */
function namesLine(line: number): RegExp {
  // `file:7:`, `line 7`, and Mono's, Nim's and Free Pascal's `file(7,27)`.
  return new RegExp(`(?:\\bline\\b\\D{0,3}|:|\\()${line}\\b`, "i");
}

type CaseName = "starter" | "echo" | "broken";

describe("every language in the real sandbox (POST /api/v2/execute)", () => {
  let server: TestServer;
  let startedAt = 0;
  let concurrency = 1;
  const cases = new Map<string, LanguageCases | undefined>();
  const answers = new Map<string, Promise<Answer>>();
  const answer = (id: string, name: CaseName) => {
    const found = answers.get(`${id} ${name}`);
    if (!found) throw new Error(`${id} has no case file: add languageCases/${id}.ts (see cases.ts)`);
    return found;
  };

  beforeAll(async () => {
    server = await startTestServer("embedded", { RUN_RATE_MAX: "10000" });
    const { token } = await buildUser(server.api);
    for (const record of records) cases.set(record.id, await loadCases(record.id));
    // All runs start now, at most as many at once as the server runs (no queueing behind it);
    // each test then awaits its own.
    concurrency = server.app.execution.service.queue.concurrency;
    const slot = limiter(concurrency);
    startedAt = performance.now();
    for (const record of records) {
      const own = cases.get(record.id);
      if (!own) continue;
      const runs: [CaseName, { content: string; stdin?: string; args?: string[] }][] = [
        ["starter", { content: record.starter }],
        ["echo", { content: own.echo, stdin: "Ada\n", args: ["x", "y z"] }],
        ["broken", { content: own.broken.source }],
      ];
      for (const [name, { content, ...input }] of runs) {
        const pending = slot(async () => {
          const res = await server.api.post(
            "/api/v2/execute",
            { language: record.id, version: "*", files: [{ name: record.mainFile, content }], ...input },
            token,
          );
          if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
          return AnswerSchema.parse(res.body);
        });
        // Awaited by its test; this only keeps an early failure from counting as unhandled.
        pending.catch(() => {});
        answers.set(`${record.id} ${name}`, pending);
      }
    }
  });

  afterAll(async () => {
    await Promise.allSettled(answers.values());
    const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
    process.stdout.write(
      `languages.int.test.ts: ${answers.size} runs of ${records.length} languages in ${seconds} s, ${concurrency} at once\n`,
    );
    await server?.close();
  });

  for (const record of records) {
    describe(record.id, () => {
      it("has its case file, languageCases/<id>.ts", () => {
        expect(cases.get(record.id), `languageCases/${caseFile(record)}.ts`).toBeDefined();
      });

      it('prints "Hello, world!" from its starter', async () => {
        const { compile, run } = await answer(record.id, "starter");
        if (record.compile) expect(compile?.code, compile?.output).toBe(0);
        expect(run, "a run").toBeDefined();
        expect(run?.stdout, JSON.stringify(run)).toBe("Hello, world!\n");
        expect(run?.stderr).toBe("");
        expect(run?.code).toBe(0);
      });

      it("reads stdin, takes its args and exits with its code", async () => {
        const { run } = await answer(record.id, "echo");
        expect(run?.stdout, run?.stderr).toBe("Hello, Ada!\nx y z\n");
        expect(run?.code).toBe(3);
      });

      it("fails on a syntax error and names its line", async () => {
        const { compile, run } = await answer(record.id, "broken");
        const line = cases.get(record.id)?.broken.line ?? 0;
        if (record.compile) {
          expect(compile?.code).toEqual(expect.any(Number));
          expect(compile?.code).not.toBe(0);
          expect(run).toBeUndefined();
          expect(compile?.output).toMatch(namesLine(line));
        } else {
          expect(run?.code).toEqual(expect.any(Number));
          expect(run?.code).not.toBe(0);
          expect(run?.output).toMatch(namesLine(line));
        }
      });
    });
  }
});
