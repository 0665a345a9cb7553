import { pino } from "pino";

/** Paths pino blanks out wherever they appear, so secrets never reach the logs. */
const REDACT = [
  "password",
  "*.password",
  "token",
  "*.token",
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "req.query.code",
  "req.query.token",
];

export type Logger = pino.Logger;

/** One JSON logger for the process; secrets are redacted by path. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT, censor: "[redacted]" } }, destination);
}
