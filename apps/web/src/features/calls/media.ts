import { CALL_MESSAGES, MEDIA_CONSTRAINTS } from "@ensemble/protocol";

/** Why the devices could not be opened, in the spec's words (§8). */
export interface MediaFailure {
  /** The toast: 'Error accessing camera/microphone: ' and the reason. */
  message: string;
  /** The call panel's alert. */
  alert: string;
}

/** The camera and microphone as opened: audio only when the camera failed, none when both did. */
export interface OpenedMedia {
  stream: MediaStream | null;
  isAudioOnly: boolean;
  failure: MediaFailure | null;
}

/** The spec's reason for a getUserMedia error. */
export function mediaReason(error: unknown): string {
  const name = error instanceof Error || error instanceof DOMException ? error.name : "";
  switch (name) {
    case "NotAllowedError":
    case "SecurityError":
      return CALL_MESSAGES.permissionDenied;
    case "NotFoundError":
    case "DevicesNotFoundError":
      return CALL_MESSAGES.noDevices;
    case "NotReadableError":
    case "TrackStartError":
      return CALL_MESSAGES.inUse;
    case "OverconstrainedError":
    case "ConstraintNotSatisfiedError":
      return CALL_MESSAGES.overconstrained;
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/** The toast and the panel alert for a getUserMedia error. */
export function mediaFailure(error: unknown): MediaFailure {
  const reason = mediaReason(error);
  const alert =
    reason === CALL_MESSAGES.permissionDenied
      ? CALL_MESSAGES.alertDenied
      : reason === CALL_MESSAGES.noDevices
        ? CALL_MESSAGES.alertNoDevices
        : CALL_MESSAGES.alertMedia(reason);
  return { message: `${CALL_MESSAGES.mediaPrefix}${reason}`, alert };
}

const isPermissionError = (error: unknown) =>
  error instanceof DOMException && (error.name === "NotAllowedError" || error.name === "SecurityError");

/**
 * Opens camera and microphone with the spec's constraints; when the camera cannot meet them,
 * the fallback 640×480 at 15 fps; when that fails too (but not for a refused permission),
 * the microphone alone. Whatever fails is described; the call goes on with what opened.
 */
export async function openMedia(
  devices: Pick<MediaDevices, "getUserMedia"> = navigator.mediaDevices,
): Promise<OpenedMedia> {
  const audio = MEDIA_CONSTRAINTS.audio;
  let first: unknown;
  try {
    return {
      stream: await devices.getUserMedia({ video: MEDIA_CONSTRAINTS.video, audio }),
      isAudioOnly: false,
      failure: null,
    };
  } catch (error) {
    first = error;
  }
  if (isPermissionError(first)) return { stream: null, isAudioOnly: false, failure: mediaFailure(first) };
  try {
    const stream = await devices.getUserMedia({ video: MEDIA_CONSTRAINTS.fallbackVideo, audio });
    return { stream, isAudioOnly: false, failure: null };
  } catch {
    // The camera is the likelier culprit: try the microphone alone.
  }
  try {
    return { stream: await devices.getUserMedia({ audio }), isAudioOnly: true, failure: mediaFailure(first) };
  } catch (error) {
    return { stream: null, isAudioOnly: false, failure: mediaFailure(error) };
  }
}
