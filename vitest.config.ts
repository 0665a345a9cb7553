import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["apps/*/src/**/*.test.ts", "packages/*/src/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
        },
      },
      {
        test: {
          name: "integration",
          include: ["apps/*/src/**/*.int.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Two cores: one file at a time keeps PGlite start-up and argon2 from starving each other.
          fileParallelism: false,
        },
      },
    ],
  },
});
