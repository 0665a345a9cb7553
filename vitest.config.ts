import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Integration files that run alone, after the others: they bound a time (a health probe under
 * 2 s, a line within 300 ms, a throttle's doubling waits, a failover's gap), or they load both
 * cores themselves (every language's toolchain, the fuzzers, bombs in the sandbox), so a file
 * beside them would make them, or it, flaky.
 */
const ALONE = [
  "apps/server/src/cluster/**/*.int.test.ts",
  "apps/server/src/fuzz/*.int.test.ts",
  "apps/server/src/main.int.test.ts",
  "apps/server/src/realtime/admission.int.test.ts",
  "apps/server/src/features/auth/loginThrottle.int.test.ts",
  "apps/server/src/features/collab/collab.int.test.ts",
  "apps/server/src/features/collab/crash.int.test.ts",
  "apps/server/src/features/execution/{compile,hostile,hostileCompiled,languages,live,nonRoot}.int.test.ts",
  "apps/server/src/features/terminal/live.int.test.ts",
];

const integration = { testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    // Vitest's default, cores - 1, is one worker on two cores: but most integration files wait on
    // sockets, child processes and the database far more than they compute (one at a time,
    // user + system time was 0.6 of the wall time), so two at a time use the idle core.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: "unit",
          include: ["apps/*/src/**/*.test.ts", "packages/*/src/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
        },
      },
      {
        // Every file has its own schema or embedded database, server on port 0 and sandbox uids
        // (uids.ts), so two files at a time share nothing but the machine.
        test: {
          name: "integration",
          include: ["apps/*/src/**/*.int.test.ts"],
          exclude: ALONE,
          ...integration,
        },
      },
      {
        // One file at a time, after the groups above (Vitest runs files without file parallelism last).
        test: { name: "integration-alone", include: ALONE, fileParallelism: false, ...integration },
      },
    ],
  },
});
