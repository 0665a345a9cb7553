import { REPLAY_MESSAGES, type ReplayAuthor, type ReplayTimeline } from "@ensemble/protocol";
import { useState } from "react";
import { toast } from "react-toastify/unstyled";
import { CloseButton } from "../../ui/CloseButton";
import { typistColor } from "../collab/presence";
import type { ReplayChannel } from "./channel";
import { formatMoment, REPLAY_SPEEDS } from "./playback";
import { ReplayCode } from "./ReplayCode";
import { moveTo, setPlaying, setReplayOpen, setSpeed, showFile, useReplayStore } from "./store";
import { useReplay } from "./useReplay";

export const REPLAY_PANEL_ID = "replay-panel";
export const REPLAY_TOGGLE_ID = "replay-toggle";

interface ReplayPanelProps {
  channel: ReplayChannel | null;
  isHost: boolean;
  isEnded: boolean;
}

/**
 * The session's replay over the editor: a time slider over its whole history with play/pause
 * and speed, the files at the chosen moment with each author's text underlined in their colour,
 * runs and pull-request events up to then, and (for the host, while the session is open)
 * "Restore this version", which the server applies as a new edit.
 */
export function ReplayPanel({ channel, isHost, isEnded }: ReplayPanelProps) {
  useReplay(channel);
  const isOpen = useReplayStore((s) => s.isOpen);
  const timeline = useReplayStore((s) => s.timeline);
  const error = useReplayStore((s) => s.error);
  if (!isOpen) return null;

  const handleClose = () => {
    setReplayOpen(false);
    document.getElementById(REPLAY_TOGGLE_ID)?.focus();
  };

  return (
    <section
      id={REPLAY_PANEL_ID}
      className="replay-panel"
      aria-labelledby="replay-title"
      data-testid="replay-panel"
    >
      <header className="replay-header">
        <h2 id="replay-title" className="replay-title">
          Replay
        </h2>
        <CloseButton label="Close replay" onClick={handleClose} />
      </header>
      {error && (
        <p className="replay-error" role="alert">
          {error}
        </p>
      )}
      {!timeline ? (
        <p className="replay-note" role="status">
          Loading the history…
        </p>
      ) : timeline.start === null || timeline.end === null ? (
        <p className="replay-note">{REPLAY_MESSAGES.empty}</p>
      ) : (
        <ReplayBody
          timeline={timeline}
          start={timeline.start}
          end={timeline.end}
          channel={channel}
          canRestore={isHost && !isEnded}
        />
      )}
    </section>
  );
}

interface ReplayBodyProps {
  timeline: ReplayTimeline;
  start: number;
  end: number;
  channel: ReplayChannel | null;
  canRestore: boolean;
}

function ReplayBody({ timeline, start, end, channel, canRestore }: ReplayBodyProps) {
  const at = useReplayStore((s) => s.at) ?? end;
  const frame = useReplayStore((s) => s.frame);
  const isPlaying = useReplayStore((s) => s.isPlaying);
  const speed = useReplayStore((s) => s.speed);
  const chosen = useReplayStore((s) => s.path);
  const files = frame?.files ?? [];
  const file = files.find((f) => f.path === chosen) ?? files[0];
  // Folders with nothing in them show on their own (the others show in their files' paths).
  const emptyFolders = (frame?.folders ?? []).filter(
    (folder) =>
      !files.some((f) => f.path.startsWith(`${folder}/`)) &&
      !(frame?.folders ?? []).some((other) => other.startsWith(`${folder}/`)),
  );
  const events = timeline.events.filter((e) => e.at <= at).slice(-8);
  const peak = Math.max(1, ...timeline.activity);

  return (
    <>
      <div className="replay-controls">
        <button
          type="button"
          className="button button-ghost replay-play"
          data-testid="replay-play"
          onClick={() => setPlaying(!isPlaying)}
        >
          {isPlaying ? "Pause" : "Play"}
        </button>
        <div className="replay-track">
          <div className="replay-activity" aria-hidden="true">
            {timeline.activity.map((count, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the bars are fixed slices of time
              <span key={i} style={{ height: `${(100 * count) / peak}%` }} />
            ))}
          </div>
          <input
            type="range"
            className="replay-slider"
            data-testid="replay-slider"
            aria-label="Moment of the session"
            aria-valuetext={formatMoment(at)}
            min={start}
            max={end}
            step={1}
            value={at}
            onChange={(event) => {
              setPlaying(false);
              moveTo(Number(event.target.value));
            }}
          />
        </div>
        <output className="replay-time" data-testid="replay-time">
          {formatMoment(at)}
        </output>
        <label className="replay-speed">
          <span className="visually-hidden">Speed</span>
          <select value={speed} onChange={(event) => setSpeed(Number(event.target.value))}>
            {REPLAY_SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        {canRestore && channel && <RestoreButton channel={channel} at={at} />}
      </div>
      <div className="replay-body">
        <nav className="replay-files" aria-label="Files at this moment">
          {files.map((f) => (
            <button
              key={f.path}
              type="button"
              className={`replay-file${f === file ? " is-active" : ""}`}
              aria-current={f === file ? "true" : undefined}
              onClick={() => showFile(f.path)}
            >
              {f.path}
            </button>
          ))}
          {emptyFolders.map((folder) => (
            <span key={folder} className="replay-folder" data-testid="replay-empty-folder">
              {folder}/ (empty)
            </span>
          ))}
        </nav>
        <section className="replay-file-view" aria-label={file ? `${file.path} at this moment` : "No files"}>
          {file ? (
            <ReplayCode file={file} authors={frame?.authors ?? []} />
          ) : (
            <p className="replay-note">No files at this moment</p>
          )}
        </section>
        <aside className="replay-side" aria-label="Authors and events">
          <h3>Who typed</h3>
          <ul className="replay-authors">
            {timeline.authors.map((author) => (
              <AuthorItem key={author.id ?? "server"} author={author} />
            ))}
          </ul>
          <h3>Runs and pull requests</h3>
          <ol className="replay-events" data-testid="replay-events">
            {events.length === 0 && <li className="replay-note">None yet</li>}
            {events.map((event, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed window of the sorted events
              <li key={`${event.at}-${i}`} className={`replay-event is-${event.kind}`}>
                <time dateTime={new Date(event.at).toISOString()}>{formatMoment(event.at)}</time> {event.text}
              </li>
            ))}
          </ol>
        </aside>
      </div>
    </>
  );
}

function AuthorItem({ author }: { author: ReplayAuthor }) {
  return (
    <li>
      <span
        className="replay-swatch"
        style={{ background: author.id === null ? "var(--border-strong)" : typistColor(author.id) }}
        aria-hidden="true"
      />
      {author.name}
    </li>
  );
}

/** The host's "Restore this version": asks once more, then the server applies it as a new edit. */
function RestoreButton({ channel, at }: { channel: ReplayChannel; at: number }) {
  const [isConfirming, setIsConfirming] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  if (!isConfirming)
    return (
      <button type="button" className="button button-primary" onClick={() => setIsConfirming(true)}>
        Restore this version
      </button>
    );
  const handleRestore = async () => {
    setIsBusy(true);
    const result = await channel.restore(at);
    setIsBusy(false);
    setIsConfirming(false);
    if (!result.ok) toast.error(result.error.message);
    else if (result.data.refused.length > 0)
      toast.error(`Not restored: ${result.data.refused.map((r) => `${r.path} (${r.message})`).join(", ")}`);
    else {
      toast.success(REPLAY_MESSAGES.restored);
      setReplayOpen(false);
    }
  };
  return (
    <fieldset className="replay-confirm">
      <legend className="visually-hidden">Confirm the restore</legend>
      Bring every file back to {formatMoment(at)}?
      <button type="button" className="button button-primary" disabled={isBusy} onClick={handleRestore}>
        Restore
      </button>
      <button type="button" className="button button-ghost" onClick={() => setIsConfirming(false)}>
        Cancel
      </button>
    </fieldset>
  );
}
