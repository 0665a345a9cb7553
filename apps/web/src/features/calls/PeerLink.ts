import { CALL_TIMING, type IceServer } from "@ensemble/protocol";
import type { PeerState } from "./store";

/** What a link sends to its remote peer through the server. */
export type Signal =
  | { kind: "description"; type: "offer" | "answer"; sdp: string }
  | { kind: "candidate"; candidate: (RTCIceCandidateInit & { candidate: string }) | null };

export interface LinkEvents {
  signal(signal: Signal): void;
  /** The remote's media, a new stream object each time a track arrives. */
  stream(stream: MediaStream): void;
  state(state: PeerState, error: string | null): void;
  /** ICE failed past its restarts, or negotiation broke: the owner starts the pair over. */
  broken(reason: string): void;
}

/** What we send: the tracks to offer, and what each sender carries now. */
export interface Outgoing {
  stream: MediaStream | null;
  audio: MediaStreamTrack | null;
  video: MediaStreamTrack | null;
}

/**
 * One RTCPeerConnection to one remote peer, negotiated with W3C perfect negotiation
 * (webrtc-pc §10.7; notes/calls-git-e2e.md A1): either side may offer at any time; on a
 * collision the polite side yields and the impolite one ignores the other's offer. Failed
 * ICE is restarted up to 3 times; a `disconnected` link gets a grace period first.
 */
export class PeerLink {
  readonly pc: RTCPeerConnection;
  private makingOffer = false;
  private ignoreOffer = false;
  private isSettingRemoteAnswerPending = false;
  private restarts = 0;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  /** Starts the pair over when it never connects (seen once in ~260 bench joins: stuck in `new`). */
  private readonly watchdog: ReturnType<typeof setTimeout>;
  private isClosed = false;
  private readonly tracks = new Set<MediaStreamTrack>();

  constructor(
    readonly remoteId: string,
    /** The smaller peer id (compared as text) is the polite side. */
    readonly isPolite: boolean,
    iceServers: IceServer[],
    private readonly events: LinkEvents,
  ) {
    this.pc = new RTCPeerConnection({ iceServers, iceCandidatePoolSize: CALL_TIMING.iceCandidatePoolSize });
    this.pc.onnegotiationneeded = () => void this.offer();
    this.pc.onicecandidate = ({ candidate }) =>
      this.events.signal({
        kind: "candidate",
        candidate: candidate ? { ...candidate.toJSON(), candidate: candidate.candidate } : null,
      });
    this.pc.ontrack = ({ track }) => {
      this.tracks.add(track);
      track.addEventListener("ended", () => this.tracks.delete(track));
      this.events.stream(new MediaStream([...this.tracks]));
    };
    this.pc.onconnectionstatechange = () => this.watchConnection();
    this.pc.oniceconnectionstatechange = () => this.watchIce();
    this.watchdog = setTimeout(() => {
      if (this.pc.connectionState !== "connected") this.fail(new Error("connection timed out"));
    }, CALL_TIMING.connectTimeoutMs);
  }

  /**
   * Sends our media: tracks we have are added (a later offer carries them); what a sender
   * carries is then set with replaceTrack, which needs no negotiation (mute, camera off,
   * screen share). The side that offers first (`isOfferer`) asks to receive audio and video
   * even when it sends none; the other side's transceivers come from that offer.
   */
  async send(outgoing: Outgoing, isOfferer: boolean): Promise<void> {
    for (const kind of ["audio", "video"] as const) {
      const track = outgoing[kind];
      const transceiver = this.transceiver(kind);
      if (!transceiver) {
        if (track) this.pc.addTrack(track, ...(outgoing.stream ? [outgoing.stream] : []));
        else if (isOfferer) this.pc.addTransceiver(kind, { direction: "recvonly" });
        continue;
      }
      // A transceiver the remote's offer created only receives until we have something to send.
      if (track && (transceiver.direction === "recvonly" || transceiver.direction === "inactive")) {
        transceiver.direction = "sendrecv";
        if (outgoing.stream) transceiver.sender.setStreams(outgoing.stream);
      }
      if (transceiver.sender.track !== track) await transceiver.sender.replaceTrack(track);
    }
  }

  /** Handles the remote's offer or answer (the perfect negotiation's receiving half). */
  async receiveDescription(description: { type: "offer" | "answer"; sdp: string }): Promise<void> {
    try {
      const readyForOffer =
        !this.makingOffer && (this.pc.signalingState === "stable" || this.isSettingRemoteAnswerPending);
      const offerCollision = description.type === "offer" && !readyForOffer;
      this.ignoreOffer = !this.isPolite && offerCollision;
      if (this.ignoreOffer) return;
      if (description.type === "offer") this.setState("handling-offer");
      this.isSettingRemoteAnswerPending = description.type === "answer";
      await this.pc.setRemoteDescription(description);
      this.isSettingRemoteAnswerPending = false;
      if (description.type === "offer") {
        await this.pc.setLocalDescription();
        this.sendLocalDescription();
        this.setState("answer-sent");
      }
    } catch (error) {
      this.fail(error);
    }
  }

  async receiveCandidate(candidate: RTCIceCandidateInit | null): Promise<void> {
    try {
      await this.pc.addIceCandidate(candidate ?? undefined);
    } catch (error) {
      // Candidates of an offer we ignored fail to apply; that is expected.
      if (!this.ignoreOffer && !this.isClosed) console.warn("Ensemble: an ICE candidate was refused", error);
    }
  }

  /** Restarts ICE now (the reconnect button on a link that still exists). */
  restartIce(): void {
    this.pc.restartIce();
  }

  close(): void {
    this.isClosed = true;
    clearTimeout(this.graceTimer);
    clearTimeout(this.watchdog);
    this.pc.onnegotiationneeded = null;
    this.pc.onicecandidate = null;
    this.pc.ontrack = null;
    this.pc.onconnectionstatechange = null;
    this.pc.oniceconnectionstatechange = null;
    this.pc.close();
  }

  private transceiver(kind: "audio" | "video"): RTCRtpTransceiver | undefined {
    return this.pc
      .getTransceivers()
      .find((t) => t.currentDirection !== "stopped" && t.receiver.track.kind === kind);
  }

  private async offer(): Promise<void> {
    try {
      this.makingOffer = true;
      this.setState("creating-offer");
      await this.pc.setLocalDescription();
      this.sendLocalDescription();
      if (this.pc.signalingState === "have-local-offer") this.setState("offer-sent");
    } catch (error) {
      this.fail(error);
    } finally {
      this.makingOffer = false;
    }
  }

  private sendLocalDescription(): void {
    const local = this.pc.localDescription;
    if (!local || (local.type !== "offer" && local.type !== "answer")) return;
    this.events.signal({ kind: "description", type: local.type, sdp: local.sdp });
  }

  private watchConnection(): void {
    if (this.isClosed) return;
    if (this.pc.connectionState === "connected") {
      clearTimeout(this.watchdog);
      this.restarts = 0;
      this.setState("connected");
    }
  }

  private watchIce(): void {
    if (this.isClosed) return;
    const state = this.pc.iceConnectionState;
    clearTimeout(this.graceTimer);
    if (state === "failed") this.recover();
    // `disconnected` often heals by itself within a few seconds.
    else if (state === "disconnected")
      this.graceTimer = setTimeout(() => {
        if (this.pc.iceConnectionState === "disconnected") this.recover();
      }, CALL_TIMING.disconnectedGraceMs);
  }

  private recover(): void {
    if (this.restarts < CALL_TIMING.iceRestarts) {
      this.restarts++;
      this.pc.restartIce();
      return;
    }
    this.events.state("error", "connection failed");
    this.events.broken("connection failed");
  }

  private setState(state: PeerState): void {
    // Once media flows, renegotiations (a screen share, a restart) do not make it "connecting".
    if (this.pc.connectionState === "connected" && state !== "connected") return;
    this.events.state(state, null);
  }

  private fail(error: unknown): void {
    if (this.isClosed) return;
    const reason = error instanceof Error ? error.message : String(error);
    this.events.state("error", reason);
    this.events.broken(reason);
  }
}
