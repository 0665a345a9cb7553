import { LANGUAGES, type Language } from "@ensemble/protocol";
import { useEffect, useState } from "react";
import type { ConnectionStatus } from "../collab/store";
import { ServiceStatus } from "../intelligence/controls/ServiceStatus";

/** The spec shows at most 36 characters of the session id. */
export const SESSION_ID_DISPLAY_MAX = 36;
const COPIED_MS = 2000;

/** The session id as the status bar shows it. */
export function displaySessionId(sessionId: string): string {
  return sessionId.length > SESSION_ID_DISPLAY_MAX
    ? `${sessionId.slice(0, SESSION_ID_DISPLAY_MAX)}…`
    : sessionId;
}

const STATUS_TEXT: Record<ConnectionStatus, string> = {
  connecting: "CONNECTING",
  connected: "CONNECTED",
  offline: "OFFLINE",
};

interface StatusBarProps {
  sessionId: string;
  file: string;
  status: ConnectionStatus;
  activeCount: number;
  onlineCount: number;
  language: Language;
}

/** Session id (copyable), file, connection, active users, language services, language and a clock. */
export function StatusBar(props: StatusBarProps) {
  return (
    <div className="status-bar">
      <span className="status-item">
        <span className="muted">Session</span>
        <span className="status-session" title={props.sessionId} data-testid="status-session-id">
          {displaySessionId(props.sessionId)}
        </span>
        <CopyButton text={props.sessionId} />
      </span>
      <span className="status-item">{props.file}</span>
      <span className={`status-item status-connection is-${props.status}`} data-testid="connection-status">
        <span className="status-dot" aria-hidden="true" />
        {STATUS_TEXT[props.status]}
      </span>
      <span
        className="status-item"
        data-testid="active-users"
        title="Active: edited in the last 30 seconds. Online: connected to this session."
      >
        {props.activeCount} active · {props.onlineCount} online
      </span>
      <span className="status-spacer" />
      <ServiceStatus />
      <span className="status-item status-language">{LANGUAGES[props.language].name}</span>
      <Clock />
    </div>
  );
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No Clipboard API (plain http on a LAN address): the older command still works there.
    const field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.style.position = "fixed";
    field.style.opacity = "0";
    document.body.append(field);
    field.select();
    const ok = document.execCommand("copy");
    field.remove();
    return ok;
  }
}

function CopyButton({ text }: { text: string }) {
  const [isCopied, setIsCopied] = useState(false);

  useEffect(() => {
    if (!isCopied) return;
    const timer = setTimeout(() => setIsCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [isCopied]);

  return (
    <>
      <button
        type="button"
        className="status-copy"
        aria-label="Copy session ID"
        onClick={() => {
          void copyText(text).then((ok) => setIsCopied(ok));
        }}
      >
        <svg width="13" height="13" viewBox="0 0 24 24" aria-hidden="true">
          <rect x="8" y="8" width="12" height="12" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
          <path
            d="M16 8V5a1 1 0 0 0-1-1H5a1 1 0 0 0-1 1v10a1 1 0 0 0 1 1h3"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          />
        </svg>
      </button>
      <span className="status-copied" role="status">
        {isCopied ? "Copied" : ""}
      </span>
    </>
  );
}

/** One formatter for every tick: `toLocaleTimeString` builds one each time (3-8 ms at Lighthouse's 4×). */
const TIME = new Intl.DateTimeFormat([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });

function Clock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <time className="status-item status-clock" dateTime={now.toISOString()}>
      {TIME.format(now)}
    </time>
  );
}
