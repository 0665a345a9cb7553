import { StrokeIcon } from "../../ui/StrokeIcon";
import { REPLAY_PANEL_ID, REPLAY_TOGGLE_ID } from "./ReplayPanel";
import { setReplayOpen, useReplayStore } from "./store";

/** The top bar's replay button: shows or hides the replay over the editor. */
export function ReplayToggle() {
  const isOpen = useReplayStore((s) => s.isOpen);
  return (
    <button
      type="button"
      id={REPLAY_TOGGLE_ID}
      className={`panel-toggle${isOpen ? " is-open" : ""}`}
      aria-label={`${isOpen ? "Hide" : "Show"} replay`}
      aria-expanded={isOpen}
      aria-controls={REPLAY_PANEL_ID}
      data-testid="replay-toggle"
      onClick={() => setReplayOpen(!isOpen)}
    >
      <StrokeIcon>
        <path d="M3 12a9 9 0 1 0 3-6.7L3 8" />
        <path d="M3 3v5h5M12 7v5l3 2" />
      </StrokeIcon>
    </button>
  );
}
