import type { Presence, Role } from "@ensemble/protocol";

/** Applies a `roleChanged` to one person: the role, and `isHost` beside it. */
export function withRole(person: Presence, participantId: string, role: Role): Presence {
  return person.id === participantId ? { ...person, role, isHost: role === "host" } : person;
}

/** Whether a change is about us and changes what we may do (a toast and the channels follow). */
export function isOwnChange(self: Presence | null, participantId: string, role: Role): boolean {
  return self !== null && self.id === participantId && self.role !== role;
}
