import { defineConfig } from "@playwright/test";
import base from "./playwright.config";
import { CLUSTER_URL } from "./support/cluster";

/**
 * The cluster walks, against three production nodes behind HAProxy that the global setup
 * starts (support/clusterSetup.ts), so no web server here: the live editor's offline-merge
 * walks through the balancer, then the failover walk (tests/cluster.spec.ts), last because it
 * kills a node. Needs `npm run build && npm run build:e2e`.
 */
export default defineConfig({
  ...base,
  testIgnore: [],
  globalSetup: "./support/clusterSetup.ts",
  webServer: [],
  reporter: [["list"], ["json", { outputFile: "../.test-output/e2e-cluster.json" }]],
  use: { ...base.use, baseURL: CLUSTER_URL },
  projects: [
    {
      name: "walks through the balancer",
      testMatch: ["editor.spec.ts", "workspace.spec.ts"],
      grep: /offline/,
    },
    { name: "failover", testMatch: "cluster.spec.ts", dependencies: ["walks through the balancer"] },
  ],
});
