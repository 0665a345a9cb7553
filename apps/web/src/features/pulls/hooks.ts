import { useEffect, useRef, useState } from "react";

/** The badge pulses this long when its count changes (spec §9). */
export const PULSE_MS = 1000;

/**
 * True for `durationMs` after `value` changes (not on the first render), counted from the
 * render that shows the pulse: a busy page that commits it late still shows it whole. A change
 * during a pulse starts it again.
 */
export function usePulse(value: unknown, durationMs = PULSE_MS): boolean {
  const [pulse, setPulse] = useState<object | null>(null);
  const previous = useRef(value);
  useEffect(() => {
    if (Object.is(previous.current, value)) return;
    previous.current = value;
    setPulse({});
  }, [value]);
  useEffect(() => {
    if (!pulse) return;
    const timer = setTimeout(() => setPulse(null), durationMs);
    return () => clearTimeout(timer);
  }, [pulse, durationMs]);
  return pulse !== null;
}

/** The time now, re-read every `intervalMs` (for relative times). */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
