import { CALL_MESSAGES } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { mediaFailure, openMedia } from "./media";

const domError = (name: string, message = name) => new DOMException(message, name);
const fakeStream = (label: string) => ({ label }) as unknown as MediaStream;

describe("media errors", () => {
  it("says each failure in the spec's words, with the panel's alert", () => {
    expect(mediaFailure(domError("NotAllowedError"))).toEqual({
      message:
        "Error accessing camera/microphone: Permission denied. Please allow camera and microphone access.",
      alert: CALL_MESSAGES.alertDenied,
    });
    expect(mediaFailure(domError("NotFoundError")).alert).toBe(CALL_MESSAGES.alertNoDevices);
    expect(mediaFailure(domError("NotReadableError")).message).toBe(
      `${CALL_MESSAGES.mediaPrefix}${CALL_MESSAGES.inUse}`,
    );
    expect(mediaFailure(domError("OverconstrainedError")).alert).toBe(
      CALL_MESSAGES.alertMedia(CALL_MESSAGES.overconstrained),
    );
    expect(mediaFailure(new Error("the cat sat on the camera")).message).toBe(
      "Error accessing camera/microphone: the cat sat on the camera",
    );
  });
});

describe("openMedia", () => {
  it("falls back to 640×480, then to the microphone alone, but not after a refused permission", async () => {
    const asked: MediaStreamConstraints[] = [];
    const devices = (answers: (MediaStream | DOMException)[]) => ({
      getUserMedia: async (constraints?: MediaStreamConstraints) => {
        asked.push(constraints ?? {});
        const answer = answers.shift();
        if (answer instanceof DOMException || !answer) throw answer ?? domError("NotFoundError");
        return answer;
      },
    });
    const hd = fakeStream("hd");
    expect(await openMedia(devices([hd]))).toEqual({ stream: hd, isAudioOnly: false, failure: null });

    asked.length = 0;
    const vga = fakeStream("vga");
    expect(await openMedia(devices([domError("OverconstrainedError"), vga]))).toMatchObject({ stream: vga });
    expect(asked[1]?.video).toMatchObject({ width: { ideal: 640 }, frameRate: { ideal: 15 } });

    const mic = fakeStream("mic");
    const audioOnly = await openMedia(
      devices([domError("NotReadableError"), domError("NotReadableError"), mic]),
    );
    expect(audioOnly).toMatchObject({ stream: mic, isAudioOnly: true });
    expect(audioOnly.failure?.message).toBe(`${CALL_MESSAGES.mediaPrefix}${CALL_MESSAGES.inUse}`);

    asked.length = 0;
    const denied = await openMedia(devices([domError("NotAllowedError")]));
    expect(denied).toMatchObject({ stream: null, failure: { alert: CALL_MESSAGES.alertDenied } });
    expect(asked).toHaveLength(1);

    const nothing = await openMedia(
      devices([domError("NotFoundError"), domError("NotFoundError"), domError("NotFoundError")]),
    );
    expect(nothing).toMatchObject({ stream: null, failure: { alert: CALL_MESSAGES.alertNoDevices } });
  });
});
