import { useEffect, useRef, useState } from "react";

/** The badge pulses this long when its count changes (spec §9). */
export const PULSE_MS = 1000;

/** True for `durationMs` after `value` changes (not on the first render). */
export function usePulse(value: unknown, durationMs = PULSE_MS): boolean {
  const [isPulsing, setIsPulsing] = useState(false);
  const previous = useRef(value);
  useEffect(() => {
    if (Object.is(previous.current, value)) return;
    previous.current = value;
    setIsPulsing(true);
    const timer = setTimeout(() => setIsPulsing(false), durationMs);
    return () => clearTimeout(timer);
  }, [value, durationMs]);
  return isPulsing;
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
