import { CALL_TIMING, type CallPeer, type IceServer, type MediaState } from "@ensemble/protocol";
import { toast } from "react-toastify/unstyled";
import { type ChannelScope, defineChannel } from "../../lib/sessionChannels";
import type { SessionLink } from "../../lib/sessionLink";
import { openMedia } from "./media";
import { type Outgoing, PeerLink, type Signal } from "./PeerLink";
import { type PeerStats, peerStats } from "./stats";
import {
  addPeer,
  leftCall,
  newPeer,
  type PeerState,
  removePeer,
  resetCall,
  setLocal,
  statusFromPeers,
  updatePeer,
  useCallStore,
} from "./store";

/** How often the loudest remote voice is looked for (the main video follows it). */
const SPEAKER_POLL_MS = 500;
const SPEAKING_LEVEL = 0.02;

/** This tab was in the session's call: a reload joins it again by itself. */
const inCallKey = (sessionId: string) => `ensembleInCall:${sessionId}`;

/**
 * This tab's part in the session's call: a WebRTC mesh (DESIGN decision 8) with one
 * PeerLink per other tab. Nothing happens until `join`: only then does the browser ask
 * for devices. The newcomer's links offer first; the others answer on the first message
 * (perfect negotiation makes any other order safe too). State goes to `useCallStore`.
 */
export class CallSession {
  private readonly links = new Map<string, PeerLink>();
  private readonly retryTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private iceServers: IceServer[] = [];
  private selfId: string | null = null;
  private camera: MediaStream | null = null;
  private screen: MediaStream | null = null;
  private speakerTimer: ReturnType<typeof setInterval> | undefined;
  /** Bumped on every join and leave, so a late answer of an older join is ignored. */
  private generation = 0;

  /** The session's way to the server (`link` is a peer's connection here). */
  private readonly session: SessionLink;
  readonly sessionId: string;

  constructor({ link, lifecycle }: ChannelScope) {
    this.session = link;
    this.sessionId = link.sessionId;
    resetCall();
    link.listen("rtcNewParticipant", ({ peer }) => {
      if (this.selfId) this.welcome(peer);
    });
    link.listen("rtcParticipantLeft", ({ peerId }) => this.drop(peerId));
    link.listen("rtcOffer", ({ senderId, sdp }) => {
      void this.link(senderId)?.receiveDescription({ type: "offer", sdp });
    });
    link.listen("rtcAnswer", ({ senderId, sdp }) => {
      void this.links.get(senderId)?.receiveDescription({ type: "answer", sdp });
    });
    link.listen("rtcIceCandidate", ({ senderId, candidate }) => {
      void this.link(senderId)?.receiveCandidate(candidate);
    });
    link.listen("rtcRequestConnection", ({ requesterId }) => {
      if (this.selfId) this.recreate(requesterId, false);
    });
    link.listen("audioToggled", ({ peerId, isMuted }) => updatePeer(peerId, { isMuted }));
    link.listen("videoToggled", ({ peerId, isVideoOff }) => updatePeer(peerId, { isVideoOff }));
    link.listen("screenSharingStarted", ({ peerId }) => updatePeer(peerId, { isScreenSharing: true }));
    link.listen("screenSharingEnded", ({ peerId }) => updatePeer(peerId, { isScreenSharing: false }));
    lifecycle.on("joined", () => this.sessionJoined());
    // The server took us out of the call with the old connection; `joined` rejoins.
    lifecycle.on("left", () => this.closeLinks());
    lifecycle.on("ended", () => this.leave());
  }

  /** Asks for camera and microphone (audio only when the camera fails), then joins the call. */
  async join(): Promise<void> {
    const { status } = useCallStore.getState();
    if (status !== "idle" && status !== "error") return;
    useCallStore.setState({ status: "joining", joinError: null, alert: null });
    sessionStorage.setItem(inCallKey(this.sessionId), "1");
    const generation = ++this.generation;
    if (!this.camera) {
      const opened = await openMedia();
      if (generation !== this.generation) {
        for (const track of opened.stream?.getTracks() ?? []) track.stop();
        return;
      }
      this.camera = opened.stream;
      if (opened.failure) {
        toast.error(opened.failure.message);
        useCallStore.setState({ alert: opened.failure.alert });
      }
      setLocal({ stream: opened.stream, isAudioOnly: opened.isAudioOnly, isVideoOff: !this.cameraTrack() });
    }
    await this.enter(generation);
  }

  /** Leaves the call and stops every device. */
  leave(): void {
    this.generation++;
    sessionStorage.removeItem(inCallKey(this.sessionId));
    if (this.selfId) void this.session.request("rtcLeave", { sessionId: this.sessionId });
    this.closeLinks();
    for (const stream of [this.camera, this.screen])
      for (const track of stream?.getTracks() ?? []) track.stop();
    this.camera = null;
    this.screen = null;
    leftCall();
  }

  toggleMute(): void {
    const isMuted = !useCallStore.getState().local.isMuted;
    setLocal({ isMuted });
    this.refreshOutgoing();
    if (this.selfId) this.session.send("audioToggled", { sessionId: this.sessionId, isMuted });
  }

  toggleVideo(): void {
    const camera = this.cameraTrack();
    if (!camera) return;
    const isVideoOff = !useCallStore.getState().local.isVideoOff;
    // Disabled, the camera sends nothing and its light may go off; replaceTrack stops the bytes.
    camera.enabled = !isVideoOff;
    setLocal({ isVideoOff });
    this.refreshOutgoing();
    if (this.selfId) this.session.send("videoToggled", { sessionId: this.sessionId, isVideoOff });
  }

  /** Shares the screen in place of the camera (no renegotiation), or returns to the camera. */
  async toggleScreenShare(): Promise<void> {
    if (this.screen) return this.stopScreenShare();
    let screen: MediaStream;
    try {
      screen = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
    } catch (error) {
      // Cancelling the browser's picker is not an error worth a toast.
      if (!(error instanceof DOMException && error.name === "NotAllowedError"))
        toast.error(`Could not share the screen: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    this.screen = screen;
    // The browser's own "Stop sharing" ends the track.
    screen.getVideoTracks()[0]?.addEventListener("ended", () => void this.stopScreenShare());
    setLocal({ isScreenSharing: true, stream: screen });
    this.refreshOutgoing();
    if (this.selfId) this.session.send("screenSharingStarted", { sessionId: this.sessionId });
  }

  /** Starts every connection over (the reconnect button). */
  reconnect(): void {
    if (!this.selfId) {
      void this.join();
      return;
    }
    for (const peer of useCallStore.getState().peers) this.recreate(peer.peerId, true);
  }

  /** Starts one pair's connection over (a tile's Try again). */
  retry(peerId: string): void {
    if (this.selfId) this.recreate(peerId, true);
  }

  /** The session's socket (re)joined the session: back into the call if we were in it. */
  private sessionJoined(): void {
    if (useCallStore.getState().status === "idle") {
      // Reloaded during a call: back in it (the devices' permission is already given).
      if (sessionStorage.getItem(inCallKey(this.sessionId))) void this.join();
      return;
    }
    this.closeLinks();
    void this.enter(++this.generation);
  }

  /** Receive-side figures of every link (tests and the bench read them). */
  async stats(): Promise<PeerStats[]> {
    return Promise.all([...this.links.entries()].map(([peerId, link]) => peerStats(peerId, link.pc)));
  }

  /** Joins the call on the server with our current media, then offers to everyone there. */
  private async enter(generation: number): Promise<void> {
    const { isMuted, isVideoOff, isScreenSharing } = useCallStore.getState().local;
    const media: MediaState = { isMuted, isVideoOff, isScreenSharing };
    useCallStore.setState({ status: "joining" });
    const result = await this.session.request("rtcReady", { sessionId: this.sessionId, media });
    if (generation !== this.generation) return;
    if (!result.ok) {
      useCallStore.setState({ status: "error", joinError: result.error.message });
      return;
    }
    this.selfId = result.data.peerId;
    this.iceServers = result.data.iceServers;
    useCallStore.setState({ selfPeerId: this.selfId, peers: [], status: "connected" });
    for (const peer of result.data.peers) {
      this.welcome(peer);
      this.link(peer.peerId, true);
    }
    this.updateStatus();
    this.watchSpeakers();
  }

  /** Someone is in the call: their tile appears; the link is made on the first message. */
  private welcome(peer: CallPeer): void {
    addPeer(newPeer(peer.peerId, peer));
    this.updateStatus();
  }

  /**
   * The link to `peerId`, made (with our media) if there is none; undefined when not in a
   * call. `isOfferer`: we start the negotiation (we joined after them, or we start over).
   */
  private link(peerId: string, isOfferer = false): PeerLink | undefined {
    const existing = this.links.get(peerId);
    if (existing || !this.selfId || peerId === this.selfId) return existing;
    const link = new PeerLink(peerId, this.selfId < peerId, this.iceServers, {
      signal: (signal) => this.signal(peerId, signal),
      stream: (stream) => updatePeer(peerId, { stream }),
      state: (state, error) => this.peerState(peerId, state, error),
      broken: () => this.scheduleRecreate(peerId, CALL_TIMING.recreateAfterMs),
    });
    this.links.set(peerId, link);
    if (!useCallStore.getState().peers.some((p) => p.peerId === peerId))
      addPeer(newPeer(peerId, { name: "Connecting…" }));
    void link
      .send(this.outgoing(), isOfferer)
      .catch((error: unknown) => this.peerState(peerId, "error", String(error)));
    return link;
  }

  private signal(peerId: string, signal: Signal): void {
    const sessionId = this.sessionId;
    if (signal.kind === "candidate")
      this.session.send("rtcIceCandidate", { sessionId, receiverId: peerId, candidate: signal.candidate });
    else if (signal.type === "offer")
      this.session.send("rtcOffer", { sessionId, receiverId: peerId, sdp: signal.sdp });
    else this.session.send("rtcAnswer", { sessionId, receiverId: peerId, sdp: signal.sdp });
  }

  /** Closes the pair's link and makes a fresh one; `ask` also has the remote start over. */
  private recreate(peerId: string, ask: boolean): void {
    clearTimeout(this.retryTimers.get(peerId));
    this.retryTimers.delete(peerId);
    this.links.get(peerId)?.close();
    this.links.delete(peerId);
    updatePeer(peerId, { state: "new", error: null });
    if (ask) this.session.send("rtcRequestConnection", { sessionId: this.sessionId, targetId: peerId });
    this.link(peerId, ask);
    this.updateStatus();
  }

  private scheduleRecreate(peerId: string, delayMs: number): void {
    if (this.retryTimers.has(peerId)) return;
    // Both sides may notice at once: the polite one waits a little longer (spec: 1–3 s retries).
    const jitter = Math.random() * (CALL_TIMING.errorRetryMaxMs - CALL_TIMING.errorRetryMinMs);
    this.retryTimers.set(
      peerId,
      setTimeout(() => {
        this.retryTimers.delete(peerId);
        if (this.links.has(peerId)) this.recreate(peerId, true);
      }, delayMs + jitter),
    );
  }

  private peerState(peerId: string, state: PeerState, error: string | null): void {
    updatePeer(peerId, { state, error });
    this.updateStatus();
  }

  private drop(peerId: string): void {
    clearTimeout(this.retryTimers.get(peerId));
    this.retryTimers.delete(peerId);
    this.links.get(peerId)?.close();
    this.links.delete(peerId);
    removePeer(peerId);
    this.updateStatus();
  }

  private closeLinks(): void {
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    this.retryTimers.clear();
    for (const link of this.links.values()) link.close();
    this.links.clear();
    clearInterval(this.speakerTimer);
    this.selfId = null;
    if (useCallStore.getState().status !== "idle") useCallStore.setState({ peers: [], selfPeerId: null });
  }

  private updateStatus(): void {
    const { status, peers } = useCallStore.getState();
    if (status === "idle" || status === "joining" || !this.selfId) return;
    useCallStore.setState({ status: statusFromPeers(peers) });
  }

  private cameraTrack(): MediaStreamTrack | null {
    return this.camera?.getVideoTracks()[0] ?? null;
  }

  /** What every sender carries now: nothing while muted or camera off; the screen while sharing. */
  private outgoing(): Outgoing {
    const { isMuted, isVideoOff } = useCallStore.getState().local;
    const audio = this.camera?.getAudioTracks()[0] ?? null;
    const screen = this.screen?.getVideoTracks()[0] ?? null;
    return {
      stream: this.camera,
      audio: isMuted ? null : audio,
      video: screen ?? (isVideoOff ? null : this.cameraTrack()),
    };
  }

  private refreshOutgoing(): void {
    const outgoing = this.outgoing();
    for (const [peerId, link] of this.links)
      void link
        .send(outgoing, false)
        .catch((error: unknown) => this.peerState(peerId, "error", String(error)));
  }

  private stopScreenShare(): void {
    const screen = this.screen;
    if (!screen) return;
    this.screen = null;
    for (const track of screen.getTracks()) track.stop();
    setLocal({ isScreenSharing: false, stream: this.camera });
    this.refreshOutgoing();
    if (this.selfId) this.session.send("screenSharingEnded", { sessionId: this.sessionId });
  }

  /** The main video follows whoever speaks loudest (from RTP's audio levels, no decoding). */
  private watchSpeakers(): void {
    clearInterval(this.speakerTimer);
    this.speakerTimer = setInterval(() => {
      let loudest: { peerId: string; level: number } | null = null;
      for (const [peerId, link] of this.links) {
        for (const receiver of link.pc.getReceivers()) {
          if (receiver.track.kind !== "audio") continue;
          const level = receiver.getSynchronizationSources()[0]?.audioLevel ?? 0;
          if (level > SPEAKING_LEVEL && (!loudest || level > loudest.level)) loudest = { peerId, level };
        }
      }
      if (loudest && useCallStore.getState().activeSpeakerId !== loudest.peerId)
        useCallStore.setState({ activeSpeakerId: loudest.peerId });
    }, SPEAKER_POLL_MS);
  }
}

/** The session's audio and video call (joined only when the person asks). */
export const callChannel = defineChannel("call", (scope) => new CallSession(scope));
