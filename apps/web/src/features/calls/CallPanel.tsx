import { CALL_MESSAGES } from "@ensemble/protocol";
import { toast } from "react-toastify/unstyled";
import { Spinner } from "../../ui/Spinner";
import { CallControls } from "./CallControls";
import type { CallSession } from "./CallSession";
import { CloseIcon, PeopleIcon } from "./icons";
import { CALL_PANEL_ID, CALL_TOGGLE_ID, callCount, isInCall, mainTile, togglePin } from "./panel";
import { pin, setPanelOpen, useCallStore } from "./store";
import { type TilePerson, VideoTile } from "./VideoTile";

/**
 * The right-hand call panel: Live Session, the main video, the thumbnails, the controls, the
 * status and the people in the call. It stays mounted while closed (hidden), so closing it
 * does not silence the call: each peer's sound plays from their thumbnail.
 */
export function CallPanel({ call }: { call: CallSession | null }) {
  const state = useCallStore();
  const inCall = isInCall(state);
  const hasStatus = state.status === "connecting" || state.status === "connected" || state.status === "error";
  const main = mainTile(state);

  const self: TilePerson = {
    peerId: state.selfPeerId ?? "self",
    name: "You",
    stream: state.local.stream,
    isMuted: state.local.isMuted,
    // Joined with the microphone only: there is no camera to show.
    isVideoOff: state.local.isVideoOff || state.local.isAudioOnly,
    isScreenSharing: state.local.isScreenSharing,
    state: "connected",
    error: null,
  };

  const handleJoin = () => {
    // The engine reports a refused join in `joinError`; a rejection here is unexpected.
    call?.join().catch((error: unknown) => {
      toast.error(error instanceof Error ? error.message : "Could not join the call");
    });
  };

  const handleClose = () => {
    setPanelOpen(false);
    document.getElementById(CALL_TOGGLE_ID)?.focus();
  };

  return (
    <aside
      id={CALL_PANEL_ID}
      className="call-panel"
      aria-labelledby="call-panel-title"
      hidden={!state.isPanelOpen}
      data-testid="call-panel"
    >
      <header className="call-header">
        <h2 id="call-panel-title" className="call-title">
          Live Session
        </h2>
        {hasStatus && (
          <span role="status" className={`call-status is-${state.status}`} data-testid="call-status">
            {state.status}
          </span>
        )}
        <span className="call-count" data-testid="call-count">
          <PeopleIcon />
          {callCount(state)} in call
        </span>
        <button type="button" className="call-close" aria-label="Close call panel" onClick={handleClose}>
          <CloseIcon />
        </button>
      </header>

      {state.status === "connecting" && state.peers.length > 0 && (
        <p className="call-banner" role="status">
          {CALL_MESSAGES.establishing}
        </p>
      )}
      {inCall && state.status === "error" && (
        <p className="call-banner is-error" role="alert">
          {CALL_MESSAGES.connectionIssue}
        </p>
      )}
      {state.alert && (
        <p className="call-banner is-error" role="alert" data-testid="call-alert">
          {state.alert}
        </p>
      )}

      <VideoTile
        person={main === null ? null : main.kind === "self" ? self : main.peer}
        variant="main"
        isSelf={main?.kind === "self"}
        isSilent
        onRetry={main?.kind === "peer" ? () => call?.retry(main.peer.peerId) : undefined}
      />

      {(inCall || state.peers.length > 0) && (
        <ul className="call-strip" aria-label="People in the call">
          {inCall && (
            <li>
              <VideoTile
                person={self}
                variant="thumb"
                isSelf
                isSilent
                isPinned={state.pinnedId !== null && state.pinnedId === state.selfPeerId}
                onPin={state.selfPeerId ? () => pin(togglePin(state, self.peerId)) : undefined}
              />
            </li>
          )}
          {state.peers.map((peer) => (
            <li key={peer.peerId}>
              <VideoTile
                person={peer}
                variant="thumb"
                isSilent={false}
                isPinned={state.pinnedId === peer.peerId}
                onPin={() => pin(togglePin(state, peer.peerId))}
                onRetry={() => call?.retry(peer.peerId)}
              />
            </li>
          ))}
        </ul>
      )}

      <CallControls call={call} local={state.local} isInCall={inCall} />

      <div className="call-membership">
        {!inCall && (
          <button
            type="button"
            className="button button-primary button-block"
            disabled={call === null || state.status === "joining"}
            onClick={handleJoin}
          >
            {state.status === "joining" ? (
              <>
                <Spinner /> Joining...
              </>
            ) : (
              "Join call"
            )}
          </button>
        )}
        {/* A refused join keeps the devices open for another try: Leave turns them off. */}
        {(inCall || state.local.stream !== null) && state.status !== "joining" && (
          <button type="button" className="button button-danger button-block" onClick={() => call?.leave()}>
            Leave call
          </button>
        )}
        {state.joinError && (
          <p className="call-join-error" role="alert" data-testid="call-join-error">
            {state.joinError}
          </p>
        )}
      </div>
    </aside>
  );
}
