import type { Language } from "@ensemble/protocol";
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { toast } from "react-toastify/unstyled";
import { EditorErrorBoundary } from "../../ui/EditorErrorBoundary";
import { CallPanel } from "../calls/CallPanel";
import { callChannel } from "../calls/CallSession";
import { ChatPanel } from "../chat/ChatPanel";
import { chatChannel } from "../chat/channel";
import { isWithin, PRESENCE_MS } from "../collab/presence";
import { useCollabStore } from "../collab/store";
import { useActivity } from "../collab/useActivity";
import { useCollabSession } from "../collab/useCollabSession";
import { sessionSettingsChannel } from "../intelligence/controls/channel";
import { pullsChannel } from "../pulls/channel";
import { ReviewPanel } from "../pulls/ReviewPanel";
import { replayChannel } from "../replay/channel";
import { ReplayPanel } from "../replay/ReplayPanel";
import { LobbyScreen } from "../roles/LobbyScreen";
import { useRolesStore } from "../roles/store";
import { ViewOnlyBanner } from "../roles/ViewOnlyBanner";
import { terminalChannel } from "../terminal/channel";
import { setTerminalOpen, useTerminalStore } from "../terminal/store";
import { TerminalPanel } from "../terminal/TerminalPanel";
import { FileTabs } from "../workspace/FileTabs";
import { openFile, openFileAt, useOpenFiles } from "../workspace/store";
import { useFollow } from "../workspace/useFollow";
import { useWorkspaceTabs } from "../workspace/useWorkspaceTabs";
import {
  ConfirmEndDialog,
  END_SESSION_TEXT,
  type EndingReason,
  SessionEndingDialog,
} from "./EndSessionDialogs";
import { END_TOAST } from "./endSession";
import { FileSidebar } from "./FileSidebar";
import { SessionEndedBanner } from "./SessionEndedBanner";
import { SessionUnavailable } from "./SessionUnavailable";
import { StatusBar } from "./StatusBar";
import { SESSION_CHANNELS } from "./sessionChannels";
import { TopBar } from "./TopBar";
import { useTestHook } from "./testHook";

// Monaco is most of the editor's weight: its own chunk, loaded after the chrome renders.
const CodeEditor = lazy(() => import("./monaco/CodeEditor"));

const SIDEBAR_ID = "file-sidebar";
const TERMINAL_ID = "terminal-panel";
const TERMINAL_TOGGLE_ID = "terminal-toggle";

/** The live editor of one session: top bar, file sidebar, the shared editor, status bar. */
export function EditorScreen({ sessionId }: { sessionId: string }) {
  const session = useCollabSession(sessionId, SESSION_CHANNELS);
  useTestHook(session);
  const activity = useActivity(session);
  const navigate = useNavigate();
  const state = useCollabStore();
  const isTerminalOpen = useTerminalStore((s) => s.isOpen);
  const lobby = useRolesStore((s) => (s.sessionId === sessionId ? s.lobby : "none"));
  const [isSidebarOpen, setIsSidebarOpen] = useState(true);
  const [isConfirmOpen, setIsConfirmOpen] = useState(false);
  // Why SESSION ENDING is open, or null while it is closed.
  const [endingReason, setEndingReason] = useState<EndingReason | null>(null);
  const focusEditor = useRef<(() => void) | null>(null);
  // The store may still describe the previous session for the first render.
  const isCurrent = state.sessionId === sessionId;
  useWorkspaceTabs(sessionId, state.language, isCurrent);
  const activeId = useOpenFiles((s) => s.activeId);
  const activePath = state.files.find((f) => f.id === activeId)?.path ?? null;
  const filePaths = useMemo(() => state.files.map((f) => f.path), [state.files]);
  const file = activePath ?? "No file open";
  const { following, follow, stop: stopFollowing } = useFollow(state.participants);
  const isHost = Boolean(isCurrent && state.self?.isHost);
  const isEnding = isCurrent && state.isEnding && !isHost;

  useEffect(() => {
    if (!isEnding) return;
    toast.info(END_SESSION_TEXT.hostEnding);
    setEndingReason("host");
  }, [isEnding]);

  useEffect(() => {
    const previous = document.title;
    document.title = `${file} · Ensemble`;
    return () => {
      document.title = previous;
    };
  }, [file]);

  if (isCurrent && state.failure) return <SessionUnavailable sessionId={sessionId} failure={state.failure} />;
  if (lobby !== "none") return <LobbyScreen status={lobby} />;

  // An ended session is an archive: everything reads, nothing changes (DESIGN decision 15).
  const endedAt = isCurrent ? state.endedAt : null;
  // A viewer sees everything live and changes nothing (DESIGN decision 17; the server refuses it too).
  const isViewer = isCurrent && state.self?.role === "viewer";
  const canEdit = isCurrent && state.hasDocument && endedAt === null && !isViewer;
  const isConnected = isCurrent && state.status === "connected";
  const canChange = isConnected && endedAt === null && !isViewer;
  const terminal = session?.channel(terminalChannel) ?? null;
  const activeCount = state.participants.filter((p) =>
    isWithin(activity.lastEdits.get(p.id) ?? null, activity.now, PRESENCE_MS.active),
  ).length;

  const leave = () => {
    navigate("/");
    toast.success(END_SESSION_TEXT.ended, END_TOAST);
  };

  const changeLanguage = (language: Language) => {
    void session?.setLanguage(language).then((result) => {
      if (!result.ok) toast.error(result.error.message);
    });
  };

  const endForEveryone = async () => {
    if (!session) return;
    const result = await session.endForEveryone();
    if (result.ok) leave();
    else toast.error(result.error.message);
  };

  return (
    <div className="editor-screen">
      <TopBar
        file={file}
        openFile={activePath ?? undefined}
        language={state.language}
        isSidebarOpen={isSidebarOpen}
        sidebarId={SIDEBAR_ID}
        canSwitchLanguage={canChange}
        isHost={isHost}
        isConnected={isConnected}
        isEnded={endedAt !== null}
        isViewOnly={isViewer}
        isTerminalOpen={isTerminalOpen}
        terminalId={TERMINAL_ID}
        terminalToggleId={TERMINAL_TOGGLE_ID}
        terminal={terminal}
        settings={session?.channel(sessionSettingsChannel) ?? null}
        onToggleSidebar={() => setIsSidebarOpen((open) => !open)}
        onToggleTerminal={() => setTerminalOpen(!isTerminalOpen)}
        onChangeLanguage={changeLanguage}
        onEndSession={() => (isHost ? setIsConfirmOpen(true) : setEndingReason("self"))}
      />
      <div className="editor-body">
        {isSidebarOpen && (
          <FileSidebar
            id={SIDEBAR_ID}
            session={session}
            activePath={activePath}
            participants={state.participants}
            selfId={state.self?.id ?? null}
            activity={activity}
            isConnected={isConnected}
            canEdit={canChange}
            canEditFiles={canEdit}
            isHost={isHost}
            isViewer={isViewer}
            followingId={following?.id ?? null}
            onFollow={follow}
            onOpened={() => focusEditor.current?.()}
          />
        )}
        <section className="editor-pane" aria-label={`Editing ${file}`}>
          {endedAt !== null && session && (
            <SessionEndedBanner endedAt={endedAt} isHost={isHost} onReopen={() => session.reopen()} />
          )}
          {isViewer && <ViewOnlyBanner />}
          <FileTabs onSelect={() => focusEditor.current?.()} />
          {following && (
            <p className="follow-banner" role="status" data-testid="follow-banner">
              Following {following.name} — Esc to stop
            </p>
          )}
          <EditorErrorBoundary>
            <Suspense fallback={<p className="editor-note">Loading editor…</p>}>
              {session && (
                <CodeEditor
                  session={session}
                  canEdit={canEdit}
                  focusRef={focusEditor}
                  followId={following?.id ?? null}
                  onTakeOver={stopFollowing}
                  onOpenFile={openFile}
                />
              )}
            </Suspense>
          </EditorErrorBoundary>
          {!(isCurrent && state.hasDocument) && (
            <p className="editor-note" role="status">
              {state.status === "offline" && state.isLocalLoaded
                ? "Offline. The session will load when the connection is back."
                : "Loading the session…"}
            </p>
          )}
          <ReplayPanel
            channel={session?.channel(replayChannel) ?? null}
            isHost={isHost}
            isEnded={endedAt !== null}
          />
          {isTerminalOpen && (
            <TerminalPanel
              openFile={activePath ?? undefined}
              id={TERMINAL_ID}
              channel={terminal}
              isConnected={isConnected}
              toggleId={TERMINAL_TOGGLE_ID}
              selfId={isCurrent ? (state.self?.id ?? null) : null}
              canChange={canChange}
              filePaths={filePaths}
              onOpenLocation={(path, line, column) => {
                const target = state.files.find((f) => f.path === path);
                if (!target) return;
                stopFollowing();
                openFileAt(target.id, line, column);
              }}
            />
          )}
        </section>
        <CallPanel call={session?.channel(callChannel) ?? null} />
        <ChatPanel channel={session?.channel(chatChannel) ?? null} />
      </div>
      <StatusBar
        sessionId={sessionId}
        file={file}
        status={isCurrent ? state.status : "connecting"}
        activeCount={activeCount}
        onlineCount={state.participants.length}
        language={state.language}
      />
      <ConfirmEndDialog
        isOpen={isConfirmOpen}
        onClose={() => setIsConfirmOpen(false)}
        onConfirm={endForEveryone}
      />
      <ReviewPanel pulls={session?.channel(pullsChannel) ?? null} isHost={isHost} isConnected={isConnected} />
      <SessionEndingDialog
        isOpen={endingReason !== null}
        reason={endingReason ?? "self"}
        sessionId={sessionId}
        pulls={session?.channel(pullsChannel) ?? null}
        onClose={() => setEndingReason(null)}
        onLeave={leave}
      />
    </div>
  );
}
