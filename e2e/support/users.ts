import { randomBytes } from "node:crypto";

export interface TestUser {
  name: string;
  email: string;
  password: string;
}

/** A user no other test or earlier run has, so tests never collide on a shared server. */
export function newUser(label = "user"): TestUser {
  const name = `${label}_${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  return { name, email: `${name}@example.test`, password: `pw-${randomBytes(4).toString("hex")}` };
}
