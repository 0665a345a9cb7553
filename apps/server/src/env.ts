import os from "node:os";
import path from "node:path";
import { IceServerSchema } from "@ensemble/protocol";
import { z } from "zod";

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

/** `host` or `host:port`; an IPv6 address in brackets. */
const HOST_ENTRY = /^([a-z0-9._-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/;

/** Loopback, and this machine's name when it is one a Host header can carry. */
function defaultHosts(): string {
  const name = os.hostname().toLowerCase();
  return ["localhost", "127.0.0.1", "[::1]", ...(HOST_ENTRY.test(name) ? [name] : [])].join(",");
}

/** Every environment variable the server reads; docs/configuration.md lists each (env.docs.test.ts). */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce
    .number({ error: "must be a port number (0 to 65535)" })
    .int("must be a port number (0 to 65535)")
    .min(0, "must be a port number (0 to 65535)")
    .max(65535, "must be a port number (0 to 65535)")
    .default(3000),
  HOST: z.string().default("0.0.0.0"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: optionalString.pipe(
    z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// URL" }).optional(),
  ),
  JWT_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  JWT_EXPIRES_IN_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 3600),
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  /**
   * Without PUBLIC_URL, the hosts (`host` at the port a request came in on, or `host:port`)
   * whose Host header may build session links and the OAuth callback; any other is replaced.
   */
  ALLOWED_HOSTS: optionalString
    .transform((list) => (list ?? defaultHosts()).split(",").map((h) => h.trim().toLowerCase()))
    .pipe(z.array(z.string().regex(HOST_ENTRY, "must be a comma-separated list of host[:port]"))),
  /** Cluster mode (docs/operations.md): rate limits, socket.io events, locks and leases shared here. */
  REDIS_URL: optionalString.pipe(
    z.url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" }).optional(),
  ),
  /** This node's name in a cluster: in `/api/health`, leases and logs. */
  NODE_ID: z
    .string()
    .trim()
    .regex(/^[\w.:-]{1,64}$/, "must be 1 to 64 letters, digits, '.', ':', '_' or '-'")
    .default(() => `${os.hostname()}-${process.pid}`),
  /**
   * How many times a minute one session may be handed from node to node when two serve it
   * (cluster/leases.ts); past it both serve it until the minute is over. 0: never hand over.
   */
  SESSION_HANDOVER_MAX: z.coerce.number().int().min(0).max(100).default(3),
  /**
   * On SIGTERM, how long `/api/health` answers 503 before the sockets are closed, so the
   * balancer has marked the node down and sends their reconnects elsewhere. Unset: 3000 ms
   * in cluster mode, 0 otherwise.
   */
  DRAIN_MS: z.coerce.number().int().min(0).max(120_000).optional(),
  /**
   * Turns on Prometheus metrics at `/metrics` on PORT, for a scraper that sends this as its
   * bearer token (docs/operations.md). Unset: no metrics, and `/metrics` is a 404.
   */
  METRICS_TOKEN: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  WEB_DIST: z.string().default(path.resolve(import.meta.dirname, "../../web/dist")),
  TRUST_PROXY: z.enum(["true", "false"]).default("false"),
  // Sign-in throttling (docs/accounts.md): failures of one account from one
  // address past LOGIN_FREE_FAILURES, or from all addresses past LOGIN_MAX_PER_ACCOUNT, make
  // each further attempt wait 1, 2, 4, … s up to LOGIN_MAX_DELAY_SECONDS.
  LOGIN_FREE_FAILURES: positiveInt(5),
  LOGIN_MAX_PER_ACCOUNT: positiveInt(100),
  LOGIN_MAX_DELAY_SECONDS: positiveInt(60),
  LOGIN_MAX_PER_ADDRESS: positiveInt(50),
  LOGIN_WINDOW_SECONDS: positiveInt(15 * 60),
  REGISTER_MAX_PER_ADDRESS: positiveInt(10),
  REGISTER_WINDOW_SECONDS: positiveInt(3600),
  /** Session creations, and joins, per address per SESSION_RATE_WINDOW_SECONDS. */
  SESSION_CREATE_MAX_PER_ADDRESS: positiveInt(30),
  SESSION_JOIN_MAX_PER_ADDRESS: positiveInt(30),
  SESSION_RATE_WINDOW_SECONDS: positiveInt(60),
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  GITHUB_OAUTH_URL: z.url().default("https://github.com"),
  GITHUB_API_URL: z.url().default("https://api.github.com"),
  /** Where git pushes and pulls: a repository is `{GITHUB_GIT_URL}/{owner}/{repo}.git`. */
  GITHUB_GIT_URL: z.url().default("https://github.com"),
  // Code execution (docs/sandbox.md).
  PISTON_URL: optionalString.pipe(
    z.url({ protocol: /^https?$/, error: "must be an http(s):// URL" }).optional(),
  ),
  BWRAP_PATH: optionalString,
  RUN_CONCURRENCY: positiveInt(os.availableParallelism()),
  RUN_QUEUE_MAX: z.coerce.number().int().min(0).default(16),
  RUN_TIMEOUT_MS: positiveInt(10_000),
  /** Wall clock of a terminal run, which may wait for someone to type (its CPU time stays RUN_CPU_TIME_MS). */
  RUN_LIVE_TIMEOUT_MS: positiveInt(120_000),
  COMPILE_TIMEOUT_MS: positiveInt(10_000),
  COMPILE_CPU_TIME_MS: positiveInt(10_000),
  /** A compiler (g++ on templates, javac, ghc) needs more than most programs. */
  COMPILE_MEMORY_LIMIT_BYTES: positiveInt(512 * 1024 * 1024),
  RUN_CPU_TIME_MS: positiveInt(10_000),
  /** Disk the compiled programs kept for re-runs may take (0: compile every time). */
  RUN_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(256 * 1024 * 1024),
  RUN_MEMORY_LIMIT_BYTES: positiveInt(256 * 1024 * 1024),
  RUN_MAX_PROCESSES: z.coerce.number().int().min(64, "must be at least 64 (Node needs threads)").default(64),
  RUN_MAX_OPEN_FILES: positiveInt(256),
  RUN_MAX_FILE_SIZE_BYTES: positiveInt(10_000_000),
  RUN_OUTPUT_MAX_BYTES: positiveInt(64 * 1024),
  RUN_TMPFS_BYTES: positiveInt(16 * 1024 * 1024),
  RUN_RATE_MAX: positiveInt(30),
  RUN_RATE_WINDOW_SECONDS: positiveInt(60),
  /**
   * A private deployment's choice: `/api/v2/execute` and `/api/v2/connect` without credentials,
   * as a self-hosted Piston takes them, rate-limited per address (RUN_RATE_MAX).
   */
  EXECUTE_ANONYMOUS: z
    .enum(["true", "false"], { error: "must be true or false" })
    .default("false")
    .transform((value) => value === "true"),
  RUN_NICE: z.coerce.number().int().min(0).max(19).default(10),
  RUN_UID_BASE: z.coerce.number().int().min(1000).max(4_294_000_000).default(62_000),
  // Shared language servers (docs/intelligence.md): clangd for C and C++, sandboxed like runs.
  CLANGD_PATH: optionalString,
  LSP_MAX_SERVERS: z.coerce.number().int().min(0).max(64).default(4),
  LSP_IDLE_MS: positiveInt(5 * 60 * 1000),
  LSP_MEMORY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024 * 1024, "must be at least 64 MiB")
    .default(512 * 1024 * 1024),
  // Calls (docs/calls.md): RTCPeerConnection's iceServers as JSON; none on one machine or a LAN.
  ICE_SERVERS: z
    .string()
    .default("[]")
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "must be JSON: a list of {urls, username?, credential?}" });
        return z.NEVER;
      }
    })
    .pipe(z.array(IceServerSchema, { error: "must be a list of {urls, username?, credential?}" })),
  // A TURN relay with time-limited credentials per participant (coturn's use-auth-secret).
  TURN_URLS: z
    .string()
    .optional()
    .transform((text) =>
      (text ?? "")
        .split(",")
        .map((url) => url.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(z.string().regex(/^turns?:/, { error: "must be turn: or turns: addresses, comma-separated" })),
    )
    .transform((urls) => (urls.length > 0 ? urls : undefined)),
  TURN_SECRET: z.string().optional(),
  TURN_TTL_SECONDS: positiveInt(12 * 3600),
  // Replay's history (docs/replay.md).
  /**
   * Days an ended session keeps its edit history (the replay) after it ended; then a periodic
   * job deletes it (its files stay). Unset: kept for as long as the session.
   */
  HISTORY_RETENTION_DAYS: z.coerce
    .number({ error: "must be a whole number of days (1 to 36500)" })
    .int("must be a whole number of days (1 to 36500)")
    .min(1, "must be a whole number of days (1 to 36500)")
    .max(36_500, "must be a whole number of days (1 to 36500)")
    .optional(),
  /** How often the history's settled rows are folded into chunks; 0: never (tests). */
  HISTORY_COMPACT_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
});

function positiveInt(fallback: number) {
  return z.coerce.number({ error: "must be a positive integer" }).int().positive().default(fallback);
}

/** The server's whole configuration, parsed once at start. */
export type Config = z.infer<typeof EnvSchema> & { githubEnabled: boolean };

/** Parses the environment; throws one readable error naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const config = parsed.data;
  if (config.TURN_URLS && (config.TURN_SECRET ?? "").length < 16) {
    throw new ConfigError(
      "Invalid configuration:\n  TURN_SECRET: must be set, 16 characters or more, when TURN_URLS is",
    );
  }
  return {
    ...config,
    DATA_DIR: path.resolve(config.DATA_DIR),
    // express's sendFile needs an absolute path.
    WEB_DIST: path.resolve(config.WEB_DIST),
    githubEnabled: Boolean(config.GITHUB_CLIENT_ID && config.GITHUB_CLIENT_SECRET),
  };
}

export class ConfigError extends Error {}
