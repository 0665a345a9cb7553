import type { ReactNode } from "react";
import { toast } from "react-toastify/unstyled";
import type { CallSession } from "./CallSession";
import { CameraIcon, MicIcon, ReconnectIcon, ScreenIcon } from "./icons";
import type { LocalMedia } from "./store";

interface CallControlsProps {
  call: CallSession | null;
  local: LocalMedia;
  /** Joined: the toggles act on a live call. */
  isInCall: boolean;
}

/** Browsers without a screen picker (most phones) cannot share. */
function canShareScreen(): boolean {
  return typeof navigator !== "undefined" && typeof navigator.mediaDevices?.getDisplayMedia === "function";
}

/** Mic, camera, screen share and reconnect; each toggle names what a press will do. */
export function CallControls({ call, local, isInCall }: CallControlsProps) {
  const canUse = call !== null && isInCall;
  // No devices opened (permission refused): we still hear and see the others.
  const hasDevices = local.stream !== null;

  const handleShare = () => {
    // The engine reports media failures in the store's alert; a rejection here is unexpected.
    call?.toggleScreenShare().catch((error: unknown) => {
      toast.error(error instanceof Error ? error.message : "Could not share the screen");
    });
  };

  return (
    <div className="call-controls">
      <ControlButton
        label={local.isMuted ? "Unmute microphone" : "Mute microphone"}
        isPressed={local.isMuted}
        isDisabled={!canUse || !hasDevices}
        isAlert={local.isMuted}
        onClick={() => call?.toggleMute()}
      >
        <MicIcon isOff={local.isMuted} />
      </ControlButton>
      <ControlButton
        label={local.isVideoOff ? "Turn camera on" : "Turn camera off"}
        isPressed={local.isVideoOff}
        isDisabled={!canUse || !hasDevices || local.isAudioOnly}
        isAlert={local.isVideoOff}
        title={local.isAudioOnly ? "No camera: you joined with the microphone only" : undefined}
        onClick={() => call?.toggleVideo()}
      >
        <CameraIcon isOff={local.isVideoOff || local.isAudioOnly} />
      </ControlButton>
      <ControlButton
        label={local.isScreenSharing ? "Stop sharing" : "Share screen"}
        isPressed={local.isScreenSharing}
        isDisabled={!canUse || !canShareScreen()}
        isActive={local.isScreenSharing}
        onClick={handleShare}
      >
        <ScreenIcon />
      </ControlButton>
      <ControlButton label="Reconnect" isDisabled={!canUse} onClick={() => call?.reconnect()}>
        <ReconnectIcon />
      </ControlButton>
    </div>
  );
}

interface ControlButtonProps {
  label: string;
  /** A toggle's state; absent on a plain action. */
  isPressed?: boolean;
  isDisabled: boolean;
  /** Drawn red: something of ours is off. */
  isAlert?: boolean;
  /** Drawn in the accent colour: something of ours is on show. */
  isActive?: boolean;
  title?: string | undefined;
  onClick: () => void;
  children: ReactNode;
}

function ControlButton({
  label,
  isPressed,
  isDisabled,
  isAlert,
  isActive,
  title,
  onClick,
  children,
}: ControlButtonProps) {
  const tone = isAlert ? " is-alert" : isActive ? " is-active" : "";
  return (
    <button
      type="button"
      className={`call-control${tone}`}
      aria-label={label}
      aria-pressed={isPressed}
      title={title ?? label}
      disabled={isDisabled}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
