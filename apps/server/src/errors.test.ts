import { ERROR_CODES, ErrorCodeSchema } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { DomainError } from "./errors";
import { httpAnswer } from "./http/errors";
import { socketRefusal } from "./realtime/handle";

/** The statuses REST answered with before the codes were one list: the spec's, unchanged. */
const REST_STATUSES = {
  bad_request: 400,
  invalid_body: 400,
  unauthenticated: 401,
  invalid_token: 401,
  token_expired: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  too_many_runs: 429,
  service_unavailable: 503,
  bad_gateway: 502,
  oauth_disabled: 404,
  github_auth: 422,
  git_failed: 422,
  session_ended: 409,
  removed: 403,
  internal: 500,
} as const;

describe("httpAnswer", () => {
  it.each(ERROR_CODES)("gives %s an error status and a declared code, with its message", (code) => {
    const answer = httpAnswer(new DomainError(code, "what happened"));
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(600);
    expect(ErrorCodeSchema.parse(answer.body.code)).toBe(answer.body.code);
    expect(answer.body.message).toBe("what happened");
    expect(answer.isUnexpected).toBe(false);
  });

  it("keeps REST's statuses and names", () => {
    for (const [code, status] of Object.entries(REST_STATUSES)) {
      const answer = httpAnswer(new DomainError(ErrorCodeSchema.parse(code), "m"));
      expect([code, answer.status, answer.body.code]).toEqual([code, status, code]);
    }
    expect(httpAnswer(new DomainError("invalid_payload", "m")).body.code).toBe("invalid_body");
    expect(httpAnswer(new DomainError("cancelled", "m")).body.code).toBe("service_unavailable");
  });

  it("sends a wait as Retry-After", () => {
    const answer = httpAnswer(new DomainError("too_many_runs", "later", { retryAfterSeconds: 30 }));
    expect(answer).toMatchObject({ status: 429, headers: { "Retry-After": "30" } });
    expect(httpAnswer(new DomainError("conflict", "m")).headers).toEqual({});
  });

  it.each([new Error("password=hunter2 in SELECT"), "password=hunter2", undefined])(
    "answers anything else (%s) as a 500 that says nothing of it",
    (thrown) => {
      const answer = httpAnswer(thrown);
      expect(answer).toEqual({
        status: 500,
        body: { code: "internal", message: "Something went wrong" },
        headers: {},
        isUnexpected: true,
      });
    },
  );

  it("keeps a 4xx of the Express stack a client error", () => {
    expect(httpAnswer({ type: "entity.too.large", status: 413 })).toMatchObject({
      status: 413,
      body: { code: "payload_too_large" },
      isUnexpected: false,
    });
    expect(httpAnswer(new URIError("URI malformed"))).toMatchObject({
      status: 400,
      body: { code: "bad_request" },
    });
  });
});

describe("socketRefusal", () => {
  it.each(ERROR_CODES)("refuses with %s as a declared code, with its message", (code) => {
    const refusal = socketRefusal(new DomainError(code, "what happened"));
    expect(ErrorCodeSchema.parse(refusal.code)).toBe(refusal.code);
    expect(refusal).toMatchObject({ message: "what happened", isUnexpected: false });
  });

  it("names a code as sockets always did", () => {
    expect(socketRefusal(new DomainError("invalid_body", "m")).code).toBe("invalid_payload");
    expect(socketRefusal(new DomainError("not_joined", "m")).code).toBe("not_joined");
    expect(socketRefusal(new DomainError("session_ended", "m")).code).toBe("session_ended");
  });

  it.each([new Error("password=hunter2 in SELECT"), "password=hunter2", null])(
    "refuses anything else (%s) as internal, saying nothing of it",
    (thrown) => {
      expect(socketRefusal(thrown)).toEqual({
        code: "internal",
        message: "Something went wrong",
        isUnexpected: true,
      });
    },
  );
});
