import { existsSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_E2E_FLAGS, CHROMIUM_PATH } from "../bench/lib/chromium";
import { APP_URL, E2E, GITHUB_URL } from "./support/env";

const isCI = Boolean(process.env.CI);
// Per port, so two runs on different ports never share (or wipe) each other's database.
const DATA_DIR = `../.test-output/e2e-data-${E2E.appPort}`;

/**
 * Specs that drive pages, accounts and the live document, with no bound on a time, no media,
 * no language server and no compiler: the "side by side" project, which CI runs two files at a
 * time (`--workers 2`, scripts/test-all.mjs). Every test has its own users and sessions on the
 * shared server, so two at a time share nothing but the machine. The rest ("one at a time")
 * bound a time (a label gone after 3 s, a call back within 15 s), stream media, or load both
 * cores themselves (language servers, compilers, runs).
 */
const SIDE_BY_SIDE = [
  "a11y",
  "apiTokens",
  "auth",
  "chat",
  "deleteAccount",
  "endSession",
  "format",
  "git",
  "journey",
  "mobile",
  "mySessions",
  "pages",
  "pulls",
  "replay",
  "roles",
  "security",
  "workspace",
  "workspaceOffline",
].map((name) => `${name}.spec.ts`);

export default defineConfig({
  testDir: "./tests",
  // The cluster walk starts its own nodes and balancer: cluster.config.ts runs it.
  testIgnore: "cluster.spec.ts",
  // Two cores: each test already drives two or three browser contexts, so one at a time unless
  // a run asks for more (CI: the "side by side" project with two).
  workers: 1,
  retries: isCI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // E2E_REPORT: where the JSON report goes, for a run that is one of several (test-all.mjs).
  reporter: [["list"], ["json", { outputFile: process.env.E2E_REPORT ?? "../.test-output/e2e.json" }]],
  outputDir: "../.test-output/e2e-artifacts",
  projects: [
    { name: "side by side", testMatch: SIDE_BY_SIDE },
    { name: "one at a time", testIgnore: [...SIDE_BY_SIDE, "cluster.spec.ts"] },
  ],
  use: {
    baseURL: APP_URL,
    browserName: "chromium",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      // Shared with the benches that drive the editor, so they measure the browser tested here.
      args: CHROMIUM_E2E_FLAGS,
    },
  },
  webServer: [
    {
      command: "node --import tsx support/fakeGithubMain.ts",
      url: `${GITHUB_URL}/user`,
      reuseExistingServer: !isCI,
      // /user answers 401 without a token, which still proves the server is up.
      timeout: 30_000,
    },
    {
      // The production server build, serving the web build that carries the test hook.
      command: `rm -rf ${DATA_DIR} && node ../apps/server/dist/main.js`,
      url: `${APP_URL}/api/health`,
      reuseExistingServer: !isCI,
      timeout: 120_000,
      env: {
        PORT: String(E2E.appPort),
        HOST: "127.0.0.1",
        DATA_DIR,
        WEB_DIST: "../apps/web/dist-e2e",
        LOG_LEVEL: "warn",
        GITHUB_CLIENT_ID: E2E.githubClientId,
        GITHUB_CLIENT_SECRET: E2E.githubClientSecret,
        GITHUB_OAUTH_URL: GITHUB_URL,
        GITHUB_API_URL: GITHUB_URL,
        GITHUB_GIT_URL: GITHUB_URL,
        // Every test signs up and opens sessions from 127.0.0.1.
        REGISTER_MAX_PER_ADDRESS: "10000",
        SESSION_CREATE_MAX_PER_ADDRESS: "10000",
        SESSION_JOIN_MAX_PER_ADDRESS: "10000",
        // C/C++ intelligence: Debian's clangd, or on a machine without it the integration tests'
        // LSP stand-in, run in the same sandbox (intelligence-c.spec.ts says which it met).
        CLANGD_PATH: existsSync("/usr/bin/clangd")
          ? "/usr/bin/clangd"
          : path.resolve("../apps/server/test/fakeLanguageServer.mjs"),
      },
    },
  ],
});
