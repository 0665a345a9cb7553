import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { textDigest } from "@ensemble/protocol";
import type { WorkspaceFile } from "../collab/index";
import type { HostFolder } from "./folder";
import { SERVER_ROOT } from "./sandbox";
import type { LanguageServerRecord } from "./servers";

/** A workspace file as the server was last told of it. */
interface FedFile {
  languageId: string;
  text: string;
  digest: string;
  /** The LSP version of its last didOpen/didChange; every change raises it. */
  version: number;
  isOpen: boolean;
}

/**
 * How many files are opened in the server unasked (each costs clangd a preamble in memory and
 * two threads); more are opened when someone asks about them.
 */
const MAX_OPEN_UNASKED = 16;

/** The LSP address of a workspace path inside the sandbox. */
export function uriOf(name: string): string {
  return pathToFileURL(path.posix.join(SERVER_ROOT, name)).href;
}

/** The workspace path of an LSP address, or undefined for one outside the workspace (a system header). */
export function pathOfUri(uri: string): string | undefined {
  if (!uri.startsWith("file://")) return undefined;
  let file: string;
  try {
    file = fileURLToPath(uri);
  } catch {
    return undefined;
  }
  return file.startsWith(`${SERVER_ROOT}/`) ? file.slice(SERVER_ROOT.length + 1) : undefined;
}

const extensionOf = (name: string) => {
  const base = name.slice(name.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
};

/**
 * Feeds one server the session's files it serves, from the shared document: each is written
 * to the server's folder (for #include) and opened with didOpen, each change is sent as the
 * file's full text with a new version, a deleted file is closed and removed. A changed header
 * makes the open sources re-read (a didChange with their same text), since clangd reads
 * headers from the disk. Calls are queued: the server sees the changes in order.
 */
export class DocumentFeed {
  private readonly files = new Map<string, FedFile>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly record: LanguageServerRecord,
    private readonly folder: HostFolder,
    private readonly notify: (method: string, params: unknown) => void,
  ) {}

  /** Whether this server serves `name` (by its extension). */
  serves(name: string): boolean {
    return this.record.languageIdOf(extensionOf(name)) !== undefined;
  }

  /** Brings the server to the workspace as it is now; `ask` is a file someone asks about (opened). */
  sync(workspace: readonly WorkspaceFile[], ask?: string): Promise<void> {
    const next = this.queue.then(() => this.apply(workspace, ask));
    this.queue = next.catch(() => {});
    return next;
  }

  /** What the server holds of `name`: its text's digest and version; undefined when not fed. */
  state(name: string): { digest: string; version: number; isOpen: boolean } | undefined {
    const file = this.files.get(name);
    return file && { digest: file.digest, version: file.version, isOpen: file.isOpen };
  }

  /** Writes the record's configuration files (before the server starts). */
  async writeConfig(): Promise<void> {
    for (const [name, content] of Object.entries(this.record.configFiles ?? {})) {
      await this.folder.write(name, content);
    }
  }

  private async apply(workspace: readonly WorkspaceFile[], ask: string | undefined): Promise<void> {
    const served = workspace.filter((f) => this.serves(f.path));
    // A header that appears later may be one a source could not find: re-read the sources then.
    const isFirst = this.files.size === 0;
    const present = new Set(served.map((f) => f.path));
    let openCount = [...this.files.values()].filter((f) => f.isOpen).length;
    let headerChanged = false;
    for (const [name, file] of this.files) {
      if (present.has(name)) continue;
      this.files.delete(name);
      if (file.isOpen) this.notify("textDocument/didClose", { textDocument: { uri: uriOf(name) } });
      await this.folder.remove(name);
      headerChanged ||= isHeader(name);
    }
    // Sources before headers, then by path: the files worth analysing first get the open slots.
    served.sort(
      (a, b) => Number(isHeader(a.path)) - Number(isHeader(b.path)) || a.path.localeCompare(b.path),
    );
    for (const { path: name, content } of served) {
      const known = this.files.get(name);
      if (known && known.text === content) {
        if (!known.isOpen && name === ask) {
          this.open(name, known);
          openCount += 1;
        }
        continue;
      }
      if (!(await this.folder.write(name, content))) continue;
      if (known) {
        known.text = content;
        known.digest = textDigest(content);
        known.version += 1;
        headerChanged ||= isHeader(name);
        if (known.isOpen) this.sendChange(name, known);
        continue;
      }
      const languageId = this.record.languageIdOf(extensionOf(name)) ?? "plaintext";
      const file: FedFile = {
        languageId,
        text: content,
        digest: textDigest(content),
        version: 1,
        isOpen: false,
      };
      this.files.set(name, file);
      headerChanged ||= !isFirst && isHeader(name);
      if (openCount < MAX_OPEN_UNASKED || name === ask) {
        this.open(name, file);
        openCount += 1;
      }
    }
    if (!headerChanged) return;
    for (const [name, file] of this.files) {
      if (!file.isOpen || isHeader(name)) continue;
      file.version += 1;
      this.sendChange(name, file);
    }
  }

  private open(name: string, file: FedFile) {
    file.isOpen = true;
    this.notify("textDocument/didOpen", {
      textDocument: { uri: uriOf(name), languageId: file.languageId, version: file.version, text: file.text },
    });
  }

  private sendChange(name: string, file: FedFile) {
    this.notify("textDocument/didChange", {
      textDocument: { uri: uriOf(name), version: file.version },
      contentChanges: [{ text: file.text }],
    });
  }
}

function isHeader(name: string): boolean {
  return /\.(h|hh|hpp|hxx|h\+\+|inl|ipp)$/i.test(name);
}
