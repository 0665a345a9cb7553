import { useCollabStore } from "../collab/store";
import { PeopleIcon } from "./icons";
import { CALL_PANEL_ID, CALL_TOGGLE_ID } from "./panel";
import { setPanelOpen, useCallStore } from "./store";

/** The top bar's participants-count button: how many are in the session; shows or hides the call panel. */
export function CallPanelToggle() {
  const isOpen = useCallStore((s) => s.isPanelOpen);
  const onlineCount = useCollabStore((s) => s.participants.length);
  return (
    <button
      type="button"
      id={CALL_TOGGLE_ID}
      className={`panel-toggle${isOpen ? " is-open" : ""}`}
      aria-label={`${isOpen ? "Hide" : "Show"} call panel`}
      aria-expanded={isOpen}
      aria-controls={CALL_PANEL_ID}
      title={`${onlineCount} online · ${isOpen ? "hide" : "show"} the call`}
      data-testid="call-panel-toggle"
      onClick={() => setPanelOpen(!isOpen)}
    >
      <PeopleIcon />
      <span className="call-toggle-count">{onlineCount}</span>
    </button>
  );
}
