import { type Language, MY_SESSIONS_MESSAGES } from "@ensemble/protocol";
import { useEffect, useMemo, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { toast } from "react-toastify/unstyled";
import { useIsCompact } from "../../ui/compact";
import { Drawer } from "../../ui/Drawer";
import { CallPanel } from "../calls/CallPanel";
import { callChannel } from "../calls/CallSession";
import { setPanelOpen, useCallStore } from "../calls/store";
import { ChatPanel } from "../chat/ChatPanel";
import { chatChannel } from "../chat/channel";
import { CHAT_INPUT_ID } from "../chat/panel";
import { setChatOpen, useChatStore } from "../chat/store";
import { isWithin, PRESENCE_MS } from "../collab/presence";
import { useCollabStore } from "../collab/store";
import { useActivity } from "../collab/useActivity";
import { useCollabSession } from "../collab/useCollabSession";
import { sessionSettingsChannel } from "../intelligence/controls/channel";
import { pullsChannel } from "../pulls/channel";
import { ReviewPanel } from "../pulls/ReviewPanel";
import { replayChannel } from "../replay/channel";
import { ReplayPanel } from "../replay/ReplayPanel";
import { setReplayOpen, useReplayStore } from "../replay/store";
import { LobbyScreen } from "../roles/LobbyScreen";
import { useRolesStore } from "../roles/store";
import { ViewOnlyBanner } from "../roles/ViewOnlyBanner";
import { REPLAY_PARAM } from "../sessions/mySessions";
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
import { SharedEditor } from "./SharedEditor";
import { StatusBar } from "./StatusBar";
import { SESSION_CHANNELS } from "./sessionChannels";
import { TopBar } from "./TopBar";
import { MORE_ACTIONS_ID } from "./TopBarMenu";
import { useTestHook } from "./testHook";

const SIDEBAR_ID = "file-sidebar";
const SIDEBAR_TOGGLE_ID = "sidebar-toggle";
const TERMINAL_ID = "terminal-panel";
const TERMINAL_TOGGLE_ID = "terminal-toggle";

/**
 * The live editor of one session: top bar, file sidebar, the shared editor, status bar. On a
 * tablet or phone (`useIsCompact`) the sidebar, chat, call and replay panels are drawers.
 */
export function EditorScreen({ sessionId }: { sessionId: string }) {
  const session = useCollabSession(sessionId, SESSION_CHANNELS);
  useTestHook(session);
  const activity = useActivity(session);
  const navigate = useNavigate();
  const state = useCollabStore();
  const isTerminalOpen = useTerminalStore((s) => s.isOpen);
  const lobby = useRolesStore((s) => (s.sessionId === sessionId ? s.lobby : "none"));
  const isCompact = useIsCompact();
  const [isSidebarOpen, setIsSidebarOpen] = useState(true);
  // The compact sidebar is a drawer over the editor: closed until asked for.
  const [isSidebarDrawerOpen, setIsSidebarDrawerOpen] = useState(false);
  const isChatOpen = useChatStore((s) => s.isOpen);
  const isCallOpen = useCallStore((s) => s.isPanelOpen);
  const isReplayOpen = useReplayStore((s) => s.isOpen);
  const focusAfterSidebar = useRef<(() => void) | null>(null);
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

  // Deleted by its host: nothing is left to keep, so everyone goes home at once.
  const isDeleted = isCurrent && state.isDeleted;
  useEffect(() => {
    if (!isDeleted) return;
    navigate("/");
    toast.info(MY_SESSIONS_MESSAGES.deletedForYou, END_TOAST);
  }, [isDeleted, navigate]);

  // My sessions opens an ended session on its replay (`?replay=1`), once joined.
  const [searchParams, setSearchParams] = useSearchParams();
  const wantsReplay = searchParams.has(REPLAY_PARAM);
  const isJoined = isCurrent && state.self !== null;
  useEffect(() => {
    if (!wantsReplay || !isJoined) return;
    setReplayOpen(true);
    setSearchParams(
      (params) => {
        params.delete(REPLAY_PARAM);
        return params;
      },
      { replace: true },
    );
  }, [wantsReplay, isJoined, setSearchParams]);

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

  const handleFileOpened = () => {
    if (!isCompact) {
      focusEditor.current?.();
      return;
    }
    // The drawer gives focus back once it has closed: to the editor, not to its opener.
    focusAfterSidebar.current = () => focusEditor.current?.();
    setIsSidebarDrawerOpen(false);
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
        isCompact={isCompact}
        file={file}
        openFile={activePath ?? undefined}
        language={state.language}
        isSidebarOpen={isCompact ? isSidebarDrawerOpen : isSidebarOpen}
        sidebarId={SIDEBAR_ID}
        sidebarToggleId={SIDEBAR_TOGGLE_ID}
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
        onToggleSidebar={() =>
          isCompact ? setIsSidebarDrawerOpen((open) => !open) : setIsSidebarOpen((open) => !open)
        }
        onToggleTerminal={() => setTerminalOpen(!isTerminalOpen)}
        onChangeLanguage={changeLanguage}
        onEndSession={() => (isHost ? setIsConfirmOpen(true) : setEndingReason("self"))}
      />
      <div className="editor-body">
        <Drawer
          isDrawer={isCompact}
          isOpen={isSidebarDrawerOpen}
          onClose={() => setIsSidebarDrawerOpen(false)}
          side="left"
          title="Sidebar"
          fallbackFocusId={SIDEBAR_TOGGLE_ID}
          focusOnClose={focusAfterSidebar}
          testId="sidebar-drawer"
        >
          {(isCompact || isSidebarOpen) && (
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
              onOpened={handleFileOpened}
            />
          )}
        </Drawer>
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
          {session && (
            <SharedEditor
              session={session}
              activeId={activePath === null ? null : activeId}
              hasDocument={isCurrent && state.hasDocument}
              fileCount={isCurrent ? state.files.length : 0}
              canEdit={canEdit}
              focusRef={focusEditor}
              followId={following?.id ?? null}
              onTakeOver={stopFollowing}
              onOpenFile={openFile}
            />
          )}
          {!(isCurrent && state.hasDocument) && (
            <p className="editor-note" role="status">
              {state.status === "offline" && state.isLocalLoaded
                ? "Offline. The session will load when the connection is back."
                : "Loading the session…"}
            </p>
          )}
          <Drawer
            isDrawer={isCompact}
            isOpen={isReplayOpen}
            onClose={() => setReplayOpen(false)}
            side="right"
            labelledBy="replay-title"
            fallbackFocusId={MORE_ACTIONS_ID}
            keepMounted
          >
            <ReplayPanel
              channel={session?.channel(replayChannel) ?? null}
              isHost={isHost}
              isEnded={endedAt !== null}
            />
          </Drawer>
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
        <Drawer
          isDrawer={isCompact}
          isOpen={isCallOpen}
          onClose={() => setPanelOpen(false)}
          side="right"
          labelledBy="call-panel-title"
          fallbackFocusId={MORE_ACTIONS_ID}
          keepMounted
        >
          <CallPanel call={session?.channel(callChannel) ?? null} />
        </Drawer>
        <Drawer
          isDrawer={isCompact}
          isOpen={isChatOpen}
          onClose={() => setChatOpen(false)}
          side="right"
          labelledBy="chat-panel-title"
          initialFocusId={CHAT_INPUT_ID}
          fallbackFocusId={MORE_ACTIONS_ID}
          keepMounted
        >
          <ChatPanel channel={session?.channel(chatChannel) ?? null} />
        </Drawer>
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
