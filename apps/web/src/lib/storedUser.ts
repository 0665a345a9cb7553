import { STORAGE_KEYS, type User, UserSchema } from "@ensemble/protocol";
import { read } from "./storage";

/**
 * The stored user, or null when missing or not a valid user (storage is outside data).
 * Apart from storage.ts because parsing brings the protocol's schemas, which a signed-out
 * visit never needs.
 */
export function readStoredUser(): User | null {
  const raw = read(STORAGE_KEYS.user);
  if (raw === null) return null;
  try {
    const parsed = UserSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
