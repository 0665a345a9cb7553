import { LANGUAGE_MAIN_FILES, type Language } from "@ensemble/protocol";
import { useEffect } from "react";
import { callChannel } from "../calls/CallSession";
import type { PeerStats } from "../calls/stats";
import { type CallStatus, useCallStore } from "../calls/store";
import type { CollabSession } from "../collab/CollabSession";
import { useCollabStore } from "../collab/store";

/**
 * What end-to-end tests read of the open session, without reaching into Monaco. Read-only
 * and small on purpose: it is present in production builds, which the e2e suite runs.
 */
export interface EnsembleTestHook {
  readonly sessionId: string;
  readonly connected: boolean;
  /** The server's document has been received since the last (re)connect. */
  readonly synced: boolean;
  /** The editor is bound to the document and editable. */
  readonly ready: boolean;
  readonly language: Language;
  /** The text of a workspace file (the current language's main file by default). */
  text(path?: string): string;
  /** The workspace's file paths, sorted. */
  files(): string[];
  /** The call: its status, and what each link received (from `getStats()`). */
  readonly callStatus: CallStatus;
  /** This tab's peer id in the call, or null outside it. */
  readonly callPeerId: string | null;
  callStats(): Promise<PeerStats[]>;
}

declare global {
  interface Window {
    __ensemble?: EnsembleTestHook;
  }
}

interface HookSource {
  sessionId: string;
  text: (path?: string) => string;
  isEditorReady: () => boolean;
  callStats: () => Promise<PeerStats[]>;
}

/**
 * Publishes the hook for the open session, only in the end-to-end build (`npm run
 * build:e2e`): production ships no test hook.
 */
export function useTestHook(session: CollabSession | null): void {
  useEffect(() => {
    if (!session || import.meta.env.VITE_TEST_HOOK !== "true") return;
    const call = session.channel(callChannel);
    return installTestHook({
      sessionId: session.sessionId,
      text: (path) => {
        const id = session.fileIdAt(path ?? LANGUAGE_MAIN_FILES[useCollabStore.getState().language]);
        return id ? session.fileText(id).toString() : "";
      },
      isEditorReady: () => session.isEditorReady,
      callStats: () => call.stats(),
    });
  }, [session]);
}

/** Publishes the hook for one session; returns its removal (a no-op if replaced since). */
function installTestHook(source: HookSource): () => void {
  const hook: EnsembleTestHook = Object.freeze({
    sessionId: source.sessionId,
    get connected() {
      return useCollabStore.getState().status === "connected";
    },
    get synced() {
      return useCollabStore.getState().isSynced;
    },
    get ready() {
      return source.isEditorReady();
    },
    get language() {
      return useCollabStore.getState().language;
    },
    text: source.text,
    files: () => useCollabStore.getState().files.map((f) => f.path),
    get callStatus() {
      return useCallStore.getState().status;
    },
    get callPeerId() {
      return useCallStore.getState().selfPeerId;
    },
    callStats: source.callStats,
  });
  window.__ensemble = hook;
  return () => {
    if (window.__ensemble === hook) delete window.__ensemble;
  };
}
