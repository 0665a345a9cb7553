import {
  CompletionListSchema,
  type FileDiagnostics,
  HoverInfoSchema,
  LANGUAGE_SERVER_MESSAGES,
  type LanguageServerId,
  LocationsSchema,
  languageServerOf,
  SignatureInfoSchema,
  type TextPosition,
  WorkspaceEditsSchema,
} from "@ensemble/protocol";
import type { z } from "zod";
import { DomainError } from "../../errors";
import type { Logger } from "../../logger";
import { completionOf, formattingOf, hoverOf, locationsOf, signaturesOf, workspaceEditsOf } from "./convert";
import { uriOf } from "./documents";
import type { ServerInstance } from "./instance";
import type { ServerPool } from "./pool";

/** How long a request waits for the asker's edits to reach the server's copy of the file. */
const CATCH_UP_MS = 600;
/** How long a server may take to answer one request. */
const ANSWER_MS = 8_000;

/** The kinds of request a person may make, with what each sends and how its answer is read. */
const KINDS = {
  completion: { method: "textDocument/completion", read: completionOf, schema: CompletionListSchema },
  hover: { method: "textDocument/hover", read: hoverOf, schema: HoverInfoSchema },
  definition: { method: "textDocument/definition", read: locationsOf, schema: LocationsSchema },
  signatureHelp: { method: "textDocument/signatureHelp", read: signaturesOf, schema: SignatureInfoSchema },
} as const;
export type PositionKind = keyof typeof KINDS;

/** A request as the socket layer hands it over: parsed, the asker's role already checked. */
export interface DocumentRequest {
  sessionId: string;
  path: string;
  digest: string;
}

/** An answer on the asker's text, or `stale` when the text changed under it (dropped). */
export type Answer<T> = { stale: false; result: T } | { stale: true };

/**
 * Shared language servers for the sessions of this node: each request is answered by the
 * session's server on exactly the text the asker saw (named by its digest), or dropped as
 * stale: when the server's copy does not reach that text in time, or changes before the
 * answer comes back.
 */
export function createLanguageServerService(ready: Promise<ServerPool>, logger: Logger) {
  function serverOf(path: string): LanguageServerId {
    const server = languageServerOf(path);
    if (!server) throw new DomainError("not_found", LANGUAGE_SERVER_MESSAGES.notServed);
    return server;
  }

  /**
   * Feeds the server until its copy of the file is the asker's (waiting briefly for edits on
   * their way); the file's LSP version then, or undefined when it did not get there.
   */
  async function catchUp(instance: ServerInstance, request: DocumentRequest): Promise<number | undefined> {
    const deadline = Date.now() + CATCH_UP_MS;
    for (;;) {
      // The feed takes the files as they are when it is called: an edit that lands while it
      // works is fed by the next round, at once, not after a wait for a change already past.
      const changesBefore = instance.changes;
      if (!(await instance.sync(request.path))) {
        throw new DomainError("not_found", LANGUAGE_SERVER_MESSAGES.notLoaded);
      }
      const state = instance.feed.state(request.path);
      if (!state) throw new DomainError("not_found", "No such file in the session");
      if (state.digest === request.digest && state.isOpen) return state.version;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      if (instance.changes === changesBefore) await instance.nextChange(left);
    }
  }

  /** Sends one request on the asker's text; the answer read and checked, or stale. */
  async function ask<S extends z.ZodType>(
    request: DocumentRequest,
    method: string,
    params: Record<string, unknown>,
    read: (answer: never) => unknown,
    schema: S,
  ): Promise<Answer<z.output<S>>> {
    const pool = await ready;
    const instance = await pool.acquire(request.sessionId, serverOf(request.path));
    const version = await catchUp(instance, request);
    if (version === undefined) return { stale: true };
    let raw: unknown;
    try {
      raw = await instance.client.request(
        method,
        { textDocument: { uri: uriOf(request.path) }, ...params },
        ANSWER_MS,
      );
    } catch (error) {
      logger.warn({ err: error, method, sessionId: request.sessionId }, "language server request failed");
      throw new DomainError("service_unavailable", LANGUAGE_SERVER_MESSAGES.failed);
    }
    // Someone typed while the server worked: the answer is about text nobody has any more.
    if (instance.feed.state(request.path)?.version !== version) return { stale: true };
    let parsed: z.ZodSafeParseResult<z.output<S>>;
    try {
      parsed = schema.safeParse(read(raw as never));
    } catch {
      parsed = schema.safeParse(undefined);
    }
    if (!parsed.success) {
      logger.warn(
        { method, issues: parsed.error.issues.slice(0, 3) },
        "language server answered out of shape",
      );
      throw new DomainError("service_unavailable", LANGUAGE_SERVER_MESSAGES.failed);
    }
    return { stale: false, result: parsed.data };
  }

  return {
    isAvailable: async (server: LanguageServerId) => (await ready).isAvailable(server),

    /** Starts the session's server (when it has none) and answers what it reported so far. */
    async open(sessionId: string, server: LanguageServerId): Promise<FileDiagnostics[]> {
      const instance = await (await ready).acquire(sessionId, server);
      if (!(await instance.sync())) throw new DomainError("not_found", LANGUAGE_SERVER_MESSAGES.notLoaded);
      return instance.reported();
    },

    /** Completion, hover, definition or signature help at `position`. */
    at<K extends PositionKind>(kind: K, request: DocumentRequest, position: TextPosition) {
      const { method, read, schema } = KINDS[kind];
      return ask(request, method, { position }, read as (answer: never) => unknown, schema);
    },

    /** The edits renaming the symbol at `position` (the socket layer refused viewers). */
    rename(request: DocumentRequest, position: TextPosition, newName: string) {
      return ask(
        request,
        "textDocument/rename",
        { position, newName },
        workspaceEditsOf as (answer: never) => unknown,
        WorkspaceEditsSchema,
      );
    },

    /** The edits formatting the whole file (the socket layer refused viewers). */
    format(request: DocumentRequest, options: { tabSize: number; insertSpaces: boolean }) {
      return ask(
        request,
        "textDocument/formatting",
        { options },
        ((answer: Parameters<typeof formattingOf>[1]) => formattingOf(request.path, answer)) as (
          answer: never,
        ) => unknown,
        WorkspaceEditsSchema,
      );
    },
  };
}

export type LanguageServerService = ReturnType<typeof createLanguageServerService>;
