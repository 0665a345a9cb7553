import type { Mark } from "./marks";
import type { Participant } from "./participant";

/** One join, timed inside the joining page from the click on Join call. */
export interface JoinSample {
  /** Click to the first poll of `getStats()` that saw a decoded video frame from the remote; NaN if none came. */
  firstFrameMs: number;
  /** Click to the first poll that saw the link `connected`. */
  connectedMs: number;
  /** Width of the first decoded frames. */
  frameWidth: number;
  polls: number;
  /** Epoch ms of the click. */
  clickedAt: number;
  /** Why no frame came within the time allowed (the links as last polled); null when one did. */
  failure: string | null;
  /** Both pages' time-stamps, in ms since the click. */
  marks: { side: "joiner" | "anchor"; name: string; ms: number }[];
  /** Warnings and errors both pages logged during the join. */
  console: string[];
}

/**
 * Clicks Join call in the same task that starts the clock, then polls the call's stats every
 * `pollMs` until a link has decoded a video frame (the figure includes up to one poll's delay)
 * or `timeoutMs` has passed.
 */
export async function timeJoin(
  joiner: Participant,
  anchor: Participant,
  options: { pollMs: number; timeoutMs: number },
): Promise<JoinSample> {
  await anchor.takeMarks(0);
  await joiner.takeMarks(0);
  anchor.takeConsole();
  const timed = await joiner.joinButton.evaluate(async (button, { pollMs, timeoutMs }) => {
    const hook = window.__ensemble;
    if (!hook || !(button instanceof HTMLElement)) throw new Error("no editor hook or no button");
    const started = performance.now();
    button.click();
    let connectedMs = Number.NaN;
    for (let polls = 1; ; polls++) {
      const links = await hook.callStats();
      const ms = performance.now() - started;
      if (Number.isNaN(connectedMs) && links.some((l) => l.connectionState === "connected")) connectedMs = ms;
      const decoded = links.find((l) => l.video.framesDecoded > 0);
      const isLate = ms > timeoutMs;
      if (decoded || isLate) {
        // The clock has stopped; give the time-stamping sink its frame too (stats may beat it).
        for (let wait = 0; decoded && wait < 50; wait++) {
          if (window.__benchMarks?.some((m) => m.name === "first frame shown")) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return {
          firstFrameMs: decoded ? ms : Number.NaN,
          connectedMs,
          frameWidth: decoded?.video.frameWidth ?? 0,
          polls,
          clickedAt: performance.timeOrigin + started,
          failure: decoded
            ? null
            : `no video frame ${timeoutMs} ms after the click: ${JSON.stringify(links)}`,
        };
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }, options);
  const relative = (side: "joiner" | "anchor") => (m: Mark) => ({
    side,
    name: m.name,
    ms: m.at - timed.clickedAt,
  });
  const marks = [
    ...(await joiner.takeMarks(timed.clickedAt)).map(relative("joiner")),
    ...(await anchor.takeMarks(timed.clickedAt)).map(relative("anchor")),
  ].sort((a, b) => a.ms - b.ms);
  const console = [
    ...joiner.takeConsole().map((line) => `joiner: ${line}`),
    ...anchor.takeConsole().map((line) => `anchor: ${line}`),
  ];
  return { ...timed, marks, console };
}

/** Where a join's time goes: consecutive steps, each from one time-stamp to the next. */
export const JOIN_STEPS = [
  { label: "devices open (click → getUserMedia resolved)", to: ["joiner", "getUserMedia resolved"] },
  { label: "rtcReady round trip (→ peer connection made)", to: ["joiner", "peer connection created"] },
  { label: "offer created (→ local offer set)", to: ["joiner", "local offer set"] },
  { label: "offer relayed (→ the other side has it)", to: ["anchor", "remote offer received"] },
  { label: "answer created (→ the other side's local answer set)", to: ["anchor", "local answer set"] },
  { label: "answer relayed (→ joiner has it)", to: ["joiner", "remote answer received"] },
  { label: "ICE checks (→ ICE connected)", to: ["joiner", "ice connected"] },
  { label: "DTLS (→ link connected)", to: ["joiner", "link connected"] },
  { label: "first packets (→ remote video track unmuted)", to: ["joiner", "track video unmuted"] },
  { label: "first whole frame (→ its last packet received)", to: ["joiner", "first frame received"] },
  { label: "decoded and shown (→ first frame on a video element)", to: ["joiner", "first frame shown"] },
  { label: "until getStats() reports it (→ the figure, as polled)", to: ["joiner", "first frame"] },
] as const;

/** When (ms since the click) one side first marked `name`; NaN if it never did. */
export function markAt(sample: JoinSample, side: "joiner" | "anchor", name: string): number {
  return sample.marks.find((m) => m.side === side && m.name === name)?.ms ?? Number.NaN;
}

/** The moment (ms since the click) each step of JOIN_STEPS ended in one sample; NaN if unseen. */
export function stepEnds(sample: JoinSample): number[] {
  return JOIN_STEPS.map(({ to: [side, name] }) =>
    name === "first frame" ? sample.firstFrameMs : markAt(sample, side, name),
  );
}
