/** A duration in ms as the tables print it: one decimal, "n/a" for no samples. */
export const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "n/a");
