import type { Ack } from "@ensemble/protocol";
import { useState } from "react";
import { toast } from "react-toastify/unstyled";
import { Spinner } from "../../ui/Spinner";

/** The banner's texts, for the page and its tests. */
export const ENDED_TEXT = {
  title: "This session has ended",
  body: "It is read-only: the code, the pull requests and the terminal stay here to read.",
  reopen: "Reopen session",
  reopened: "Session reopened: everyone can edit again.",
} as const;

interface SessionEndedBannerProps {
  /** When the host ended it (ISO time). */
  endedAt: string;
  isHost: boolean;
  onReopen: () => Promise<Ack<unknown>>;
}

/** Shown over an ended session (DESIGN decision 15); its host can reopen it from here. */
export function SessionEndedBanner({ endedAt, isHost, onReopen }: SessionEndedBannerProps) {
  const [isReopening, setIsReopening] = useState(false);
  const reopen = async () => {
    setIsReopening(true);
    const result = await onReopen();
    setIsReopening(false);
    if (result.ok) toast.success(ENDED_TEXT.reopened);
    else toast.error(result.error.message);
  };
  return (
    <div className="ended-banner" role="status" data-testid="session-ended-banner">
      <p>
        <strong>{ENDED_TEXT.title}</strong>{" "}
        <time dateTime={endedAt} title={new Date(endedAt).toLocaleString()}>
          ({new Date(endedAt).toLocaleDateString()})
        </time>
        . {ENDED_TEXT.body}
      </p>
      {isHost && (
        <button
          type="button"
          className="button button-primary"
          disabled={isReopening}
          onClick={() => void reopen()}
        >
          {isReopening && <Spinner />}
          {ENDED_TEXT.reopen}
        </button>
      )}
    </div>
  );
}
