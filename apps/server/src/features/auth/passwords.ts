import { hash, verify } from "@node-rs/argon2";

/** Hashes with argon2id (the library's default) and its OWASP-recommended cost. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Verifying against a real hash when the account does not exist keeps the answer time
// the same, so login timing does not reveal which emails have accounts.
const decoyHash = hash("decoy password that matches nothing");

/** Checks a password; with no stored hash it still spends the time of a check and fails. */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    await verify(await decoyHash, password);
    return false;
  }
  return verify(storedHash, password);
}
