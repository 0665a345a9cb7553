import {
  CancellationTokenSource,
  type ClientCapabilities,
  createProtocolConnection,
  InitializedNotification,
  InitializeRequest,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import type { SandboxProcess } from "../execution/index";
import type { LanguageServerRecord } from "./servers";

// Our server is each language server's only LSP client: this is that client, over the
// sandboxed process's stdin and stdout (vscode-jsonrpc frames and matches the messages).

/** What we tell a server we understand: plain requests, markdown, snippets, label offsets. */
const CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ["utf-16"] },
  textDocument: {
    synchronization: { didSave: false, dynamicRegistration: false },
    completion: {
      completionItem: { snippetSupport: true, documentationFormat: ["markdown", "plaintext"] },
      contextSupport: true,
    },
    hover: { contentFormat: ["markdown", "plaintext"] },
    signatureHelp: {
      signatureInformation: {
        documentationFormat: ["markdown", "plaintext"],
        parameterInformation: { labelOffsetSupport: true },
        activeParameterSupport: true,
      },
    },
    definition: { linkSupport: false },
    rename: { prepareSupport: false },
    formatting: {},
    publishDiagnostics: { relatedInformation: false },
  },
  workspace: { workspaceEdit: { documentChanges: false } },
};

const INITIALIZE_TIMEOUT_MS = 30_000;

/** One running language server and the LSP connection to it. */
export class LanguageServerClient {
  private isDisposed = false;

  private constructor(
    private readonly process: SandboxProcess,
    private readonly connection: ProtocolConnection,
    /** The last of its stderr, for the log when it fails. */
    private readonly stderrTail: () => string,
  ) {}

  /**
   * Speaks LSP over `process` and completes `initialize`; rejects (the process killed) when the
   * server exits or does not answer within 30 s.
   */
  static async start(
    child: SandboxProcess,
    record: LanguageServerRecord,
    rootUri: string,
  ): Promise<LanguageServerClient> {
    let tail = "";
    child.stderr.on("data", (chunk: Buffer) => {
      tail = (tail + chunk.toString("utf8")).slice(-2000);
    });
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    // A broken pipe or a malformed message is reported as the process's exit, never thrown.
    connection.onError(() => {});
    connection.listen();
    const client = new LanguageServerClient(child, connection, () => tail);
    const exited = child.closed.then((exit) => {
      throw new Error(`${record.name} exited (${exit.code ?? exit.signal}): ${tail.trim().slice(-300)}`);
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${record.name} did not initialize in time`)),
        INITIALIZE_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([
        connection.sendRequest(InitializeRequest.type, {
          processId: null,
          rootUri,
          workspaceFolders: [{ uri: rootUri, name: "workspace" }],
          capabilities: CAPABILITIES,
          initializationOptions: record.initializationOptions,
        }),
        exited,
        timeout,
      ]);
      await connection.sendNotification(InitializedNotification.type, {});
      return client;
    } catch (error) {
      client.kill();
      throw error;
    } finally {
      clearTimeout(timer);
      exited.catch(() => {});
    }
  }

  /** The process's pid (bwrap's, whose process group holds the server). */
  get pid(): number {
    return this.process.pid;
  }

  /** Settles once the server exited, for whatever reason. */
  get closed(): Promise<unknown> {
    return this.process.closed;
  }

  get hasExited(): boolean {
    return this.process.exit !== undefined;
  }

  get lastErrors(): string {
    return this.stderrTail().trim().slice(-500);
  }

  /** Sends a request; rejects after `timeoutMs` (the request cancelled) or when the server fails it. */
  async request<R>(method: string, params: unknown, timeoutMs: number): Promise<R> {
    if (this.isDisposed) throw new Error(`${method}: the server was stopped`);
    const cancel = new CancellationTokenSource();
    const timer = setTimeout(() => cancel.cancel(), timeoutMs);
    try {
      const answer = this.connection.sendRequest<R>(method, params, cancel.token);
      const expired = new Promise<never>((_, reject) =>
        cancel.token.onCancellationRequested(() => reject(new Error(`${method} timed out`))),
      );
      return await Promise.race([answer, expired]);
    } finally {
      clearTimeout(timer);
      cancel.dispose();
    }
  }

  /** Sends a notification; a server that is gone drops it (its exit is handled elsewhere). */
  notify(method: string, params: unknown): void {
    if (this.hasExited || this.isDisposed) return;
    try {
      this.connection.sendNotification(method, params).catch(() => {});
    } catch {
      // A connection disposed meanwhile throws at once: the server is being stopped.
    }
  }

  onDiagnostics(handler: (params: PublishDiagnosticsParams) => void): void {
    this.connection.onNotification(PublishDiagnosticsNotification.type, handler);
  }

  /** Ends the server at once: its whole process group (bwrap's PID namespace takes the rest). */
  kill(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    if (!this.hasExited) {
      try {
        process.kill(-this.process.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    this.connection.dispose();
  }
}
