import { describe, expect, it } from "vitest";
import { OAUTH_ERROR_MESSAGES, oauthErrorMessage, RegisterBodySchema, UpdateUserBodySchema } from "./auth";

describe("oauthErrorMessage", () => {
  it("gives our message for each known code", () => {
    for (const [code, message] of Object.entries(OAUTH_ERROR_MESSAGES)) {
      expect(oauthErrorMessage(code)).toBe(message);
    }
  });

  it("gives the generic message for anything else, an object's own keys included, never the text", () => {
    for (const text of ["Your account was suspended", "constructor", "__proto__", "toString", ""]) {
      expect(oauthErrorMessage(text)).toBe("Authentication failed");
    }
  });
});

describe("usernames", () => {
  it("cannot contain '@', on sign-up or on change", () => {
    const signUp = RegisterBodySchema.safeParse({ name: "alice@x.test", email: "a@b.test", password: "x" });
    expect(signUp.error?.issues[0]?.message).toBe("Username cannot contain '@'");
    expect(UpdateUserBodySchema.safeParse({ name: "a@b" }).success).toBe(false);
    expect(UpdateUserBodySchema.safeParse({ name: "alice_x.test" }).success).toBe(true);
  });
});
