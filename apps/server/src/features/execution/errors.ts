import { EXECUTION_MESSAGES } from "@ensemble/protocol";

/**
 * Why the execution service refused or could not finish a run. Each kind is its own class
 * so that each edge (HTTP in routes.ts, the terminal's entries) maps it without reading the
 * message; the message is for people and is shown as it is.
 */
export abstract class ExecutionError extends Error {}

/** The request cannot run as asked: unknown runtime, a limit over the maximum, a bad file name. */
export class BadRunRequestError extends ExecutionError {}

/** The caller ran too often; it may run again after `retryAfterSeconds`. */
export class RunRateLimitedError extends ExecutionError {
  constructor(readonly retryAfterSeconds: number) {
    super(EXECUTION_MESSAGES.tooManyRuns);
  }
}

/** Every slot is busy and the waiting line is full. */
export class RunQueueFullError extends ExecutionError {
  constructor() {
    super(EXECUTION_MESSAGES.queueFull);
  }
}

/** This server cannot run code at all (no bubblewrap, no python3, the sandbox does not start). */
export class RunnerUnavailableError extends ExecutionError {}

/**
 * The Piston server of PISTON_URL failed: unreachable, unreadable, or answered with an error
 * `status` (then the message is the spec's "API responded with status: n").
 */
export class RemoteRunnerError extends ExecutionError {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A waiting or running run was cancelled: its caller went away, or the server is stopping. */
export class RunAbortedError extends ExecutionError {
  constructor() {
    super("Run cancelled");
  }
}
