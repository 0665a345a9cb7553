/** One moment of a join as the page saw it: epoch milliseconds, comparable across pages. */
export interface Mark {
  name: string;
  at: number;
  /** Which RTCPeerConnection of the page (1, 2, …), when the moment is one link's. */
  link?: number;
}

declare global {
  interface Window {
    __benchMarks?: Mark[];
  }
}

/**
 * Installed in every page before the app's scripts (an init script): wraps getUserMedia and
 * RTCPeerConnection, without changing what they do, to time-stamp where a join spends its
 * time, up to the first remote video frame on a video element. The app reads `window.RTCPeerConnection` when it makes a link, so the subclass is
 * what it gets. Playwright sends this function's source to the page: it must not use
 * anything from this module.
 */
export function installMarks(): void {
  // Init scripts also run in about:blank, which has no media devices.
  if (!navigator.mediaDevices) return;
  const marks: Mark[] = [];
  Object.defineProperty(window, "__benchMarks", { value: marks });
  const mark = (name: string, link?: number, at = performance.now()) =>
    marks.push({ name, at: performance.timeOrigin + at, ...(link ? { link } : {}) });

  /**
   * The first frame of a remote video track, from a sink of our own (the app's tiles are
   * untouched): when its last packet arrived and when it was shown. The sink is let go after
   * that one frame, so it costs nothing later.
   */
  const watchFirstFrame = (track: MediaStreamTrack, link: number) => {
    const sink = document.createElement("video");
    sink.muted = true;
    sink.srcObject = new MediaStream([track]);
    sink.requestVideoFrameCallback((_now, frame) => {
      if (frame.receiveTime !== undefined) mark("first frame received", link, frame.receiveTime);
      mark("first frame shown", link, frame.presentationTime);
      sink.srcObject = null;
    });
    // Letting go of the stream ends play()'s promise; a sink that could not play shows as no
    // "first frame shown" in the report.
    sink.play().catch(() => {});
  };

  const media = navigator.mediaDevices;
  const getUserMedia = media.getUserMedia.bind(media);
  media.getUserMedia = async (constraints) => {
    mark("getUserMedia called");
    try {
      return await getUserMedia(constraints);
    } finally {
      mark("getUserMedia resolved");
    }
  };

  const Native = window.RTCPeerConnection;
  let links = 0;
  class MarkedPeerConnection extends Native {
    private readonly link = ++links;

    constructor(config?: RTCConfiguration) {
      super(config);
      mark("peer connection created", this.link);
      this.addEventListener("iceconnectionstatechange", () =>
        mark(`ice ${this.iceConnectionState}`, this.link),
      );
      this.addEventListener("connectionstatechange", () => mark(`link ${this.connectionState}`, this.link));
      this.addEventListener("signalingstatechange", () =>
        mark(`signaling ${this.signalingState}`, this.link),
      );
      this.addEventListener("negotiationneeded", () => mark("negotiation needed", this.link));
      this.addEventListener("track", ({ track }) => {
        mark(`track ${track.kind} arrived`, this.link);
        // A remote track is muted until its first packets arrive.
        track.addEventListener("unmute", () => mark(`track ${track.kind} unmuted`, this.link), {
          once: true,
        });
        if (track.kind === "video") watchFirstFrame(track, this.link);
      });
    }

    override async setLocalDescription(description?: RTCLocalSessionDescriptionInit): Promise<void> {
      await super.setLocalDescription(description);
      mark(`local ${this.localDescription?.type ?? "description"} set`, this.link);
    }

    override async setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void> {
      mark(`remote ${description.type} received`, this.link);
      await super.setRemoteDescription(description);
    }

    override async addIceCandidate(candidate?: RTCIceCandidateInit | null): Promise<void> {
      try {
        await super.addIceCandidate(candidate ?? undefined);
        mark(candidate?.candidate ? "remote candidate added" : "remote candidates complete", this.link);
      } catch (error) {
        mark(
          `remote candidate refused: ${error instanceof Error ? error.message : String(error)}`,
          this.link,
        );
        throw error;
      }
    }
  }
  window.RTCPeerConnection = MarkedPeerConnection;
}
