import { z } from "zod";
import { SessionIdSchema } from "./sessions";

/**
 * Calls: a WebRTC mesh signalled over the session's socket (DESIGN decision 8). Each browser
 * tab that joins the call gets a peer id from the server, fresh for every join; every pair of
 * peers has one RTCPeerConnection, negotiated with W3C perfect negotiation where the larger
 * peer id (compared as text) is the impolite side.
 */
export const CALL_LIMITS = {
  /** People in one call: a mesh sends every stream N−1 times (docs/calls.md). */
  maxPeers: 6,
  sdpChars: 32 * 1024,
  candidateChars: 1024,
  /** Signalling messages one socket may send per window (ICE candidates come in bursts). */
  messagesPerWindow: 400,
  windowMs: 10_000,
} as const;

/** The spec's call timings (§4, §9). */
export const CALL_TIMING = {
  iceRestarts: 3,
  recreateAfterMs: 3000,
  reconnectAfterMs: 5000,
  errorRetryMinMs: 1000,
  errorRetryMaxMs: 3000,
  iceCandidatePoolSize: 10,
  /** `disconnected` often recovers by itself: wait this long before treating it as failed. */
  disconnectedGraceMs: 2000,
  /** A pair not connected this long after it was made is started over (a lost message, a stuck negotiation). */
  connectTimeoutMs: 10_000,
} as const;

/** The spec's media constraints (§9). */
export const MEDIA_CONSTRAINTS = {
  video: {
    width: { ideal: 1280, max: 1920, min: 320 },
    height: { ideal: 720, max: 1080, min: 240 },
    frameRate: { ideal: 30, max: 60, min: 15 },
  },
  fallbackVideo: { width: { ideal: 640 }, height: { ideal: 480 }, frameRate: { ideal: 15 } },
  audio: {
    echoCancellation: true,
    noiseSuppression: true,
    autoGainControl: true,
    sampleRate: 44100,
    channelCount: 2,
  },
} as const;

/** What people read about calls (spec §8). */
export const CALL_MESSAGES = {
  full: `The call is full: up to ${CALL_LIMITS.maxPeers} people can join.`,
  notInCall: "Join the call first",
  peerGone: "That participant is not in the call",
  tooMany: "Too many call messages; slow down.",
  mediaPrefix: "Error accessing camera/microphone: ",
  permissionDenied: "Permission denied. Please allow camera and microphone access.",
  noDevices: "No camera or microphone found. Please connect your devices.",
  inUse: "Camera or microphone is already in use by another application.",
  overconstrained: "Camera/microphone doesn't support the requested settings.",
  alertDenied: "Camera and microphone access denied. Please allow access and refresh the page.",
  alertNoDevices: "No camera or microphone found. Please connect your devices and refresh.",
  alertMedia: (reason: string) => `Media error: ${reason}. Please check your camera/microphone and refresh.`,
  cameraOff: "Camera is off",
  videoLoading: "Video loading...",
  connecting: "Connecting...",
  tileError: (reason: string) => `Error: ${reason}`,
  tryAgain: "Try again",
  noParticipant: "No participant",
  establishing: "Establishing connection with other participants...",
  connectionIssue: "Connection issue detected. Try pressing the reconnect button.",
} as const;

/** A peer id: made by the server when a tab joins the call. */
export const PeerIdSchema = z.string().min(1).max(64);

/** What everyone in the call sees of a peer's media. */
export const MediaStateSchema = z.object({
  isMuted: z.boolean(),
  isVideoOff: z.boolean(),
  isScreenSharing: z.boolean(),
});
export type MediaState = z.infer<typeof MediaStateSchema>;

/** One tab in the call: its peer id, whose it is (the presence id), and its media. */
export const CallPeerSchema = MediaStateSchema.extend({
  peerId: PeerIdSchema,
  participantId: z.string(),
  name: z.string(),
});
export type CallPeer = z.infer<typeof CallPeerSchema>;

/** An ICE server as RTCPeerConnection takes it (from the ICE_SERVERS configuration). */
export const IceServerSchema = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof IceServerSchema>;

/** rtcReady: join the call with the media one starts with. */
export const RtcReadySchema = z.object({ sessionId: SessionIdSchema, media: MediaStateSchema });

/** rtcReady's answer: who I am in the call, who is already there, and how to reach them. */
export const RtcJoinedSchema = z.object({
  peerId: PeerIdSchema,
  peers: z.array(CallPeerSchema),
  iceServers: z.array(IceServerSchema),
});
export type RtcJoined = z.infer<typeof RtcJoinedSchema>;

const SdpSchema = z.string().min(1).max(CALL_LIMITS.sdpChars, "SDP too large");

/** An ICE candidate as `RTCIceCandidate.toJSON()` gives it; null ends the candidates. */
export const CandidateSchema = z
  .object({
    candidate: z.string().max(CALL_LIMITS.candidateChars),
    sdpMid: z.string().max(64).nullable().optional(),
    sdpMLineIndex: z.number().int().min(0).max(1024).nullable().optional(),
    usernameFragment: z.string().max(256).nullable().optional(),
  })
  .nullable();

/** From the browser: a message for one peer of the call (the server stamps the sender). */
export const RtcDescriptionOutSchema = z.object({
  sessionId: SessionIdSchema,
  receiverId: PeerIdSchema,
  sdp: SdpSchema,
});
export const RtcCandidateOutSchema = z.object({
  sessionId: SessionIdSchema,
  receiverId: PeerIdSchema,
  candidate: CandidateSchema,
});
export const RtcRequestOutSchema = z.object({ sessionId: SessionIdSchema, targetId: PeerIdSchema });

/** To the browser: the same messages, with the sender's real peer id. */
export const RtcDescriptionSchema = z.object({
  sessionId: z.string(),
  senderId: PeerIdSchema,
  sdp: z.string(),
});
export type RtcDescription = z.infer<typeof RtcDescriptionSchema>;
export const RtcCandidateSchema = z.object({
  sessionId: z.string(),
  senderId: PeerIdSchema,
  candidate: CandidateSchema,
});
export type RtcCandidate = z.infer<typeof RtcCandidateSchema>;
export const RtcRequestSchema = z.object({ sessionId: z.string(), requesterId: PeerIdSchema });

/** A peer joined (rtcNewParticipant) or left (rtcParticipantLeft) the call. */
export const RtcNewParticipantSchema = z.object({ sessionId: z.string(), peer: CallPeerSchema });
export const RtcParticipantLeftSchema = z.object({ sessionId: z.string(), peerId: PeerIdSchema });

/** Media toggles, from the browser (its own) and to everyone (stamped with whose). */
export const AudioToggleOutSchema = z.object({ sessionId: SessionIdSchema, isMuted: z.boolean() });
export const VideoToggleOutSchema = z.object({ sessionId: SessionIdSchema, isVideoOff: z.boolean() });
export const AudioToggledSchema = z.object({
  sessionId: z.string(),
  userId: z.string(),
  peerId: PeerIdSchema,
  isMuted: z.boolean(),
});
export const VideoToggledSchema = z.object({
  sessionId: z.string(),
  userId: z.string(),
  peerId: PeerIdSchema,
  isVideoOff: z.boolean(),
});
export const ScreenSharingSchema = z.object({
  sessionId: z.string(),
  userId: z.string(),
  peerId: PeerIdSchema,
});
