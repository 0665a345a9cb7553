/** The 11 avatar backgrounds (spec §9); each keeps white initials above 4.5:1 contrast. */
export const AVATAR_COLORS = [
  "#b91c1c",
  "#c2410c",
  "#a16207",
  "#4d7c0f",
  "#15803d",
  "#0f766e",
  "#0369a1",
  "#1d4ed8",
  "#6d28d9",
  "#a21caf",
  "#be123c",
] as const;

/**
 * One of the 11 colours, derived from the user id. The spec picked at random; hashing the id
 * keeps a person's colour the same across reloads and devices, which is what makes it useful.
 */
export function avatarColor(userId: string): string {
  let hash = 0;
  for (const char of userId) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return AVATAR_COLORS[hash % AVATAR_COLORS.length] ?? AVATAR_COLORS[0];
}

/** First and last initials of a display name ('Ada Lovelace' -> 'AL', 'ada' -> 'A'); '?' if empty. */
export function initialsOf(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const first = parts[0]?.[0] ?? "";
  const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? "") : "";
  return (first + last).toUpperCase() || "?";
}
