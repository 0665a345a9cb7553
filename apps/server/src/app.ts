import http from "node:http";
import { LIMITS } from "@ensemble/protocol";
import express from "express";
import { createCluster } from "./cluster/index";
import type { Db } from "./db/index";
import type { Config } from "./env";
import { createAccountFeature } from "./features/account/index";
import { createAuthFeature } from "./features/auth/index";
import { createCallsFeature, turnConfigOf } from "./features/calls/index";
import { createChatFeature } from "./features/chat/index";
import { createCollabFeature } from "./features/collab/index";
import { createExecutionFeature, mountPistonConnect } from "./features/execution/index";
import { createIntelligenceFeature } from "./features/intelligence/index";
import { createPullRequestFeature } from "./features/pulls/index";
import { createReplayFeature } from "./features/replay/index";
import { createRolesFeature, Lobby } from "./features/roles/index";
import { createSessionsFeature, mySessionsRoutes, registerSessionEvents } from "./features/sessions/index";
import { createTerminalFeature } from "./features/terminal/index";
import { createVcsFeature } from "./features/vcs/index";
import { apiNotFound, errorHandler } from "./http/errors";
import { requestLog } from "./http/requestLog";
import { securityHeaders } from "./http/securityHeaders";
import { inlineScriptHashes, webApp } from "./http/static";
import { createLimiters } from "./limiter";
import type { Logger } from "./logger";
import { createMetrics } from "./metrics/index";
import { SocketEvents } from "./realtime/handle";
import { PresenceRegistry } from "./realtime/presence";
import { attachRealtime } from "./realtime/socket";

export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  jwtSecret: Uint8Array;
}

/** Builds the whole server (HTTP API, web build, socket.io) on one http.Server, not yet listening. */
export function createApp({ config, db, logger, jwtSecret }: AppDeps) {
  const metrics = createMetrics(config.METRICS_TOKEN);
  const limiters = createLimiters(logger, config.REDIS_URL);
  const cluster = createCluster(config, logger, metrics.reporter);
  const auth = createAuthFeature(db, config, jwtSecret, limiters, logger);
  const sessions = createSessionsFeature(db, auth.service, config, limiters, logger);
  const execution = createExecutionFeature(config, auth.service, limiters, logger, metrics.reporter);

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.TRUST_PROXY === "true");
  app.use(requestLog(logger));
  app.use(securityHeaders(config, inlineScriptHashes(config.WEB_DIST)));

  const api = express.Router();
  api.use(express.json({ limit: LIMITS.jsonBodyBytes }));
  api.use(auth.routes);
  api.use(sessions.routes);
  api.use(execution.routes);

  const server = http.createServer(app);
  const events = new SocketEvents(logger);
  const io = attachRealtime(server, auth.service, events, cluster.adapter);
  const pistonConnect = mountPistonConnect(
    server,
    execution.service,
    execution.callerOf,
    logger,
    config.TRUST_PROXY === "true",
  );
  const presence = new PresenceRegistry(io);
  const lobby = new Lobby(io, presence, cluster.table);
  // A handover sends the session's waiting sockets, like its joined ones, to the new owner.
  cluster.ownership.onHandover((sessionId) => {
    for (const socket of lobby.sockets(sessionId)) socket.conn.close();
  });
  const collab = createCollabFeature(
    server,
    io,
    events,
    presence,
    db,
    logger,
    cluster.ownership,
    metrics.reporter,
  );
  const sessionControl = registerSessionEvents({
    io,
    events,
    sessions: sessions.service,
    presence,
    documents: collab.documents,
    lobby,
    logger,
  });
  createRolesFeature({ io, events, sessions: sessions.service, lobby, presence });
  const calls = createCallsFeature(
    io,
    events,
    { iceServers: config.ICE_SERVERS, turn: turnConfigOf(config) },
    limiters,
    cluster.table,
  );
  const chat = createChatFeature({ io, events, db, sessions: sessions.service, limiters });
  const terminal = createTerminalFeature({
    io,
    events,
    db,
    execution: execution.service,
    sessions: sessions.service,
    workspace: collab.workspace,
    logger,
    liveTimeoutMs: config.RUN_LIVE_TIMEOUT_MS,
    flights: cluster.flights,
  });
  const github = { apiUrl: config.GITHUB_API_URL, gitUrl: config.GITHUB_GIT_URL };
  const vcs = createVcsFeature({
    io,
    dataDir: config.DATA_DIR,
    github,
    workspace: collab.workspace,
    commands: terminal.commands,
    auth: auth.service,
    sessions: sessions.service,
    events,
    flights: cluster.flights,
  });
  const pulls = createPullRequestFeature({
    io,
    presence,
    db,
    vcs: vcs.service,
    github,
    authorOf: vcs.authorOf,
    sessions: sessions.service,
    terminal: terminal.service,
    commands: terminal.commands,
    events,
  });
  const account = createAccountFeature({
    db,
    io,
    auth: auth.service,
    sessions: sessions.service,
    chat: chat.service,
    pulls: pulls.service,
    filesOf: collab.filesOf,
    documents: collab.documents,
    removeRepository: vcs.removeRepository,
    onError: (error) => logger.error({ err: error }, "removing a deleted session's repository failed"),
  });
  const intelligence = createIntelligenceFeature({ config, io, events, workspace: collab.workspace, logger });
  const replay = createReplayFeature({
    db,
    sessions: sessions.service,
    terminal: terminal.service,
    pulls: pulls.service,
    workspace: collab.workspace,
    events,
    logger,
    history: { compactSeconds: config.HISTORY_COMPACT_SECONDS, retentionDays: config.HISTORY_RETENTION_DAYS },
  });
  // Routes of features that need the socket server are mounted last, before the fallbacks.
  let isDraining = false;
  api.get("/health", (_req, res) => {
    // 503 while draining: the balancer's check takes the node out before its sockets close.
    res.status(isDraining ? 503 : 200).json({
      ok: !isDraining,
      draining: isDraining,
      nodeId: cluster.nodeId,
      liveSessions: collab.rooms.size,
      ownedSessions: cluster.ownership.ownedCount,
      updates: collab.rooms.counts,
    });
  });
  metrics.read({
    sessionsLoaded: () => collab.rooms.size,
    sessionsOwned: () => cluster.ownership.ownedCount,
    clients: () => io.sockets.sockets.size,
    updates: () => collab.rooms.counts,
    runs: () => execution.service.queue,
    assemblingBytes: () => collab.assembling.bytes,
  });
  api.use(vcs.routes);
  api.use(account.routes);
  api.use(
    mySessionsRoutes({
      sessions: sessions.service,
      auth: auth.service,
      control: sessionControl,
      forget: {
        before: async (sessionId, host) => terminal.service.stopIfRunning(sessionId, host),
        after: vcs.service.removeRepository,
      },
    }),
  );
  api.use(apiNotFound);
  app.use("/api", api);
  app.use(metrics.routes);
  app.use(webApp(config.WEB_DIST));
  app.use(errorHandler());

  return {
    server,
    io,
    events,
    collab,
    vcs,
    pulls,
    execution,
    terminal,
    intelligence,
    replay,
    limiters,
    cluster,
    /** Starts a graceful drain: the health check fails from now on (see main.ts). */
    drain() {
      isDraining = true;
    },
    /** Stops taking connections, drops sockets, stores every live document, waits for requests. */
    async close() {
      pistonConnect.close();
      await io.close();
      lobby.stop();
      calls.calls.close();
      await execution.close();
      await intelligence.close();
      await replay.close();
      await collab.close();
      await limiters.close();
      await cluster.close();
    },
  };
}
