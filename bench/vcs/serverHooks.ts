/**
 * Preloaded into our server (after collab/serverProbe.ts) by the vcs bench, which talks to it
 * over the IPC channel: it records the server's calls with `installTrace`, and serves the
 * anchor whose git runs from the server's own process (so it pays what starting a process costs
 * the server). Each `HookCommand` gets one `{ type: "vcs:<id>", value | error }` answer; spans
 * travel on the monotonic clock (`toMonotonic`).
 */
import { type AnchorCommand, serveAnchor } from "./anchorProtocol";
import { installTrace, toMonotonic } from "./trace";

export type HookCommand = { type: "vcs"; id: number } & (
  | AnchorCommand
  | { command: "watch"; folder: string }
  | { command: "start" }
  | { command: "take" }
);

export interface HookReply {
  type: `vcs:${number}`;
  value?: unknown;
  error?: string;
}

const trace = installTrace();
const serve = serveAnchor(trace);

async function answer(message: HookCommand): Promise<unknown> {
  switch (message.command) {
    case "watch":
      return trace.watch(message.folder);
    case "start":
      return trace.start();
    case "take":
      return toMonotonic(trace.take());
    default:
      return serve(message);
  }
}

process.on("message", (message: HookCommand) => {
  if (message.type !== "vcs") return;
  const reply = (fields: { value?: unknown; error?: string }) =>
    process.send?.({ type: `vcs:${message.id}`, ...fields } satisfies HookReply);
  answer(message).then(
    (value) => reply({ value }),
    (error: unknown) => reply({ error: String(error) }),
  );
});
// The channel must not keep the server alive once it has closed everything else.
process.channel?.unref();
