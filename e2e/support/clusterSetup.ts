import { startCluster } from "./cluster";

/** The cluster config's global setup: one cluster for all its specs, stopped after them. */
export default async function clusterSetup(): Promise<() => Promise<void>> {
  return await startCluster();
}
