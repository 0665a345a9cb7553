import { findNul, nulRefusal } from "@ensemble/protocol";
import type { Request } from "express";
import type { z } from "zod";
import { DomainError } from "../errors";

/**
 * Parses a JSON request body with a protocol schema. A body that is missing or not JSON
 * is refused with 415 before any parsing, so `req.body` is never trusted unparsed; text
 * holding NUL anywhere is refused here, for every route, since PostgreSQL cannot store it.
 */
export function parseBody<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  if (!req.is("application/json")) {
    throw new DomainError("unsupported_media_type", "Content-Type must be application/json");
  }
  const nulAt = findNul(req.body);
  if (nulAt !== undefined) {
    throw new DomainError("invalid_body", nulRefusal(nulAt, "The body"));
  }
  const result = schema.safeParse(req.body);
  if (!result.success) {
    const first = result.error.issues[0];
    throw new DomainError("invalid_body", first?.message ?? "Invalid request body");
  }
  return result.data;
}
