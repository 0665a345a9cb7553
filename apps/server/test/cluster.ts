import { startNode } from "../../../scripts/cluster/harness";
import { openTestDb, TEST_POSTGRES_URL } from "./harness";

export {
  type Balancer,
  clusterPorts,
  type NodeProcess,
  nodeHealth,
  pollUntil,
  startBalancer,
  TEST_REDIS_URL,
  upNodes,
} from "../../../scripts/cluster/harness";

/** Starts the server from source (main.ts) as node `id` on `port`, in cluster mode on `databaseUrl`. */
export const startNodeProcess = (
  id: string,
  port: number,
  databaseUrl: string,
  env: Record<string, string> = {},
) => startNode({ id, port, databaseUrl, main: "source" }, env);

/** A fresh schema on the machine's PostgreSQL, migrated, as a URL every node can use. */
export async function clusterDatabase() {
  const opened = await openTestDb("postgres");
  const [row] = await opened.db.query<{ schema: string }>("SELECT current_schema() AS schema");
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set("options", `-c search_path=${row?.schema ?? "public"}`);
  return { ...opened, url: url.toString() };
}
