import { EXECUTION_MESSAGES } from "@ensemble/protocol";
import { DomainError } from "../../errors";

/**
 * The execution service's refusals, each a DomainError whose code the edges map (HTTP in
 * routes.ts, the terminal's entries); the message is for people and is shown as it is.
 */

/** The request cannot run as asked: unknown runtime, a limit over the maximum, a bad file name. */
export const badRunRequest = (message: string) => new DomainError("invalid_payload", message);

/** The caller ran too often; it may run again after `retryAfterSeconds`. */
export const runRateLimited = (retryAfterSeconds: number) =>
  new DomainError("too_many_runs", EXECUTION_MESSAGES.tooManyRuns, { retryAfterSeconds });

/** Every slot is busy and the waiting line is full. */
export const runQueueFull = () => new DomainError("too_many_runs", EXECUTION_MESSAGES.queueFull);

/** This server cannot run code at all (no bubblewrap, no python3, the sandbox does not start). */
export const runnerUnavailable = (message: string) => new DomainError("service_unavailable", message);

/**
 * The Piston server of PISTON_URL failed: unreachable, unreadable, or answered with an error
 * `upstreamStatus` (then the message is the spec's "API responded with status: n").
 */
export const remoteRunnerFailed = (message: string, upstreamStatus?: number) =>
  new DomainError("bad_gateway", message, upstreamStatus === undefined ? {} : { upstreamStatus });

/** A waiting or running run was cancelled: its caller went away, or the server is stopping. */
export const runCancelled = () => new DomainError("cancelled", "Run cancelled");

/** Whether `error` is a run's cancellation (runCancelled). */
export const isRunCancelled = (error: unknown): boolean =>
  error instanceof DomainError && error.code === "cancelled";
