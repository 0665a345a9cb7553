import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as awarenessProtocol from "y-protocols/awareness";
import * as Y from "yjs";
import { throttleAwareness } from "./awarenessThrottle";

function decodeStates(message: Uint8Array) {
  const target = new awarenessProtocol.Awareness(new Y.Doc());
  awarenessProtocol.applyAwarenessUpdate(target, message, "test");
  return target.getStates();
}

describe("throttleAwareness", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends the first change at once and a burst as one message with the latest state", () => {
    const awareness = new awarenessProtocol.Awareness(new Y.Doc());
    const sent: Uint8Array[] = [];
    const throttle = throttleAwareness(awareness, (m) => sent.push(m), 80);
    awareness.setLocalStateField("cursor", 1);
    throttle.request();
    expect(sent).toHaveLength(1);
    for (let i = 2; i <= 5; i++) {
      awareness.setLocalStateField("cursor", i);
      throttle.request();
    }
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(80);
    expect(sent).toHaveLength(2);
    expect(decodeStates(sent[1] ?? new Uint8Array()).get(awareness.clientID)).toMatchObject({ cursor: 5 });
    awareness.destroy();
  });

  it("sends a cleared state (leaving) immediately", () => {
    const awareness = new awarenessProtocol.Awareness(new Y.Doc());
    const sent: Uint8Array[] = [];
    const throttle = throttleAwareness(awareness, (m) => sent.push(m), 80);
    awareness.setLocalStateField("cursor", 1);
    throttle.request();
    awareness.setLocalStateField("cursor", 2);
    throttle.request();
    awareness.setLocalState(null);
    throttle.request();
    expect(sent).toHaveLength(2);
    vi.advanceTimersByTime(200);
    expect(sent).toHaveLength(2);
    awareness.destroy();
  });
});
