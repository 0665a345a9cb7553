import { defineConfig } from "@playwright/test";
import base from "./playwright.config";
import { CLUSTER_URL } from "./support/cluster";

/**
 * The cluster walk (tests/cluster.spec.ts): the spec starts its own three nodes and HAProxy
 * (support/cluster.ts), so no web server here. Needs `npm run build && npm run build:e2e`.
 */
export default defineConfig({
  ...base,
  testMatch: "cluster.spec.ts",
  testIgnore: [],
  webServer: [],
  reporter: [["list"], ["json", { outputFile: "../.test-output/e2e-cluster.json" }]],
  use: { ...base.use, baseURL: CLUSTER_URL },
});
