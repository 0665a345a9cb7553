import { CALL_MESSAGES } from "@ensemble/protocol";
import { useEffect, useRef, useState } from "react";
import { tileNotice } from "./panel";
import type { RemotePeer } from "./store";
import { useAutoplayResume } from "./useAutoplayResume";

/** Whom a tile shows: a peer as the store holds it, or ourselves in the same shape. */
export type TilePerson = Omit<RemotePeer, "participantId">;

interface VideoTileProps {
  /** Null: the main tile with nobody to show. */
  person: TilePerson | null;
  variant: "main" | "thumb";
  isSelf?: boolean;
  /**
   * Plays no sound. Our own tile never does (echo); the main tile neither, since the same
   * peer's thumbnail already plays their sound and two elements would play it twice.
   */
  isSilent: boolean;
  /** The thumbnail's pin state; absent on the main tile. */
  isPinned?: boolean;
  onPin?: () => void;
  onRetry?: () => void;
}

/** One person's video with their name, mute / camera / sharing marks, and the tile texts of §8. */
export function VideoTile({
  person,
  variant,
  isSelf = false,
  isSilent,
  isPinned,
  onPin,
  onRetry,
}: VideoTileProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const stream = person?.stream ?? null;
  // The stream whose first frame the element has shown: a new stream starts loading again.
  const [framesOf, setFramesOf] = useState<MediaStream | null>(null);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    // Both are properties, not attributes: React's `muted` is unreliable before play().
    video.muted = isSilent;
    if (video.srcObject !== stream) video.srcObject = stream;
  }, [stream, isSilent]);
  useAutoplayResume(videoRef, stream);

  const handleFrame = () => {
    const video = videoRef.current;
    // An audio-only stream fires loadeddata too, without a picture.
    if (video?.srcObject instanceof MediaStream && video.videoWidth > 0) setFramesOf(video.srcObject);
  };

  const notice = person
    ? tileNotice({ ...person, hasFrames: stream !== null && framesOf === stream })
    : { text: CALL_MESSAGES.noParticipant, tone: "info" as const, canRetry: false };
  const name = isSelf ? "You" : (person?.name ?? "");
  const isMirrored = isSelf && !person?.isScreenSharing;

  return (
    <div
      className={`call-tile call-tile-${variant}${isPinned ? " is-pinned" : ""}`}
      data-testid={variant === "main" ? "main-video-tile" : "video-tile"}
      // One [data-peer-id] per person: the main tile repeats someone's thumbnail, so it names them apart.
      data-peer-id={variant === "thumb" ? person?.peerId : undefined}
      data-main-peer-id={variant === "main" ? person?.peerId : undefined}
      data-state={person?.state}
      data-muted={person?.isMuted}
      data-video-off={person?.isVideoOff}
      data-sharing={person?.isScreenSharing}
    >
      {/* biome-ignore lint/a11y/useMediaCaption: a live call has no caption track to give; the spoken words are the point */}
      <video
        ref={videoRef}
        className={`call-video${isMirrored ? " is-mirrored" : ""}`}
        data-testid="call-video"
        autoPlay
        playsInline
        onLoadedData={handleFrame}
        onResize={handleFrame}
      />
      {onPin && person && (
        <button
          type="button"
          className="call-tile-pin"
          aria-pressed={isPinned}
          aria-label={
            isPinned
              ? `Unpin ${isSelf ? "yourself" : name} from the main video`
              : `Show ${isSelf ? "yourself" : name} in the main video`
          }
          onClick={onPin}
        />
      )}
      {notice && (
        <div className={`call-tile-notice${notice.tone === "error" ? " is-error" : ""}`}>
          <p>{notice.text}</p>
          {person && person.state !== "connected" && person.state !== "error" && (
            // Spec §4's handshake state of the pair, for whoever wonders what "Connecting" waits on.
            <small className="call-tile-state" data-testid="peer-state">
              {person.state}
            </small>
          )}
          {notice.canRetry && onRetry && (
            <button type="button" className="call-retry" onClick={onRetry}>
              {CALL_MESSAGES.tryAgain}
            </button>
          )}
        </div>
      )}
      {person && (
        <div className="call-tile-caption">
          <span className="call-tile-name">{name}</span>
          <TileMarks person={person} />
        </div>
      )}
    </div>
  );
}

/** The mute, camera-off and sharing marks, each an image with a name for screen readers. */
function TileMarks({ person }: { person: TilePerson }) {
  return (
    <span className="call-tile-marks">
      {person.isScreenSharing && (
        <svg role="img" aria-label="Sharing screen" className="call-mark is-sharing" viewBox="0 0 24 24">
          <rect x="3" y="4" width="18" height="12" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M8 20h8M12 16v4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      )}
      {person.isVideoOff && (
        <svg role="img" aria-label="Camera off" className="call-mark" viewBox="0 0 24 24">
          <path
            d="M3 7h10a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H3zM15 11l6-4v10l-6-4M2 3l20 18"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinejoin="round"
            strokeLinecap="round"
          />
        </svg>
      )}
      {person.isMuted && (
        <svg role="img" aria-label="Muted" className="call-mark is-muted" viewBox="0 0 24 24">
          <path
            d="M9 5a3 3 0 0 1 6 0v6a3 3 0 0 1-6 0zM5 11a7 7 0 0 0 14 0M12 18v3M3 3l18 18"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        </svg>
      )}
    </span>
  );
}
