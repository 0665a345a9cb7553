import { PrDiffSchema } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { NO_ANSWER, parseAck } from "./acks";

describe("parseAck", () => {
  it("returns the data of a success the schema accepts", () => {
    const data = { prId: "pr-1", files: [] };
    expect(parseAck(PrDiffSchema, { ok: true, data })).toEqual({ ok: true, data });
  });

  it("passes the server's refusal on with its code and message", () => {
    const ack = { ok: false, error: { code: "forbidden", message: "Only the host" } };
    expect(parseAck(PrDiffSchema, ack)).toEqual({ ok: false, code: "forbidden", message: "Only the host" });
  });

  it("tells a missing answer from a malformed one", () => {
    expect(parseAck(PrDiffSchema, null)).toEqual({ ok: false, code: "no_answer", message: NO_ANSWER });
    expect(parseAck(PrDiffSchema, { ok: true, data: { prId: 1 } })).toMatchObject({
      ok: false,
      code: "invalid_answer",
    });
  });
});
