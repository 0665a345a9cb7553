/**
 * The per-address limits (sign-ups, session creation and joins) raised for a benchmark's own
 * server: every simulated user comes from 127.0.0.1, where the defaults would refuse most.
 */
export const BENCH_LIMITS_ENV = {
  REGISTER_MAX_PER_ADDRESS: "1000000",
  SESSION_CREATE_MAX_PER_ADDRESS: "1000000",
  SESSION_JOIN_MAX_PER_ADDRESS: "1000000",
} as const;
