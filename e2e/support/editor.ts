import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { expect } from "@playwright/test";
import type { LinkStats } from "./calls";
import { newUser } from "./users";

/** The read-only hook the editor publishes on `window` (apps/web features/editor/testHook.ts). */
interface EnsembleHook {
  readonly connected: boolean;
  readonly synced: boolean;
  readonly ready: boolean;
  readonly language: string;
  text(path?: string): string;
  files(): string[];
  readonly callStatus: string;
  readonly callPeerId: string | null;
  callStats(): Promise<LinkStats[]>;
}

declare global {
  interface Window {
    __ensemble?: EnsembleHook;
  }
}

export interface Host {
  name: string;
  token: string;
  user: unknown;
  sessionId: string;
}

/** Registers a new user through the API and has them create a session: a fresh room per test. */
export async function createHostedSession(request: APIRequestContext, label = "host"): Promise<Host> {
  const account = newUser(label);
  const registered = await request.post("/api/auth/register", { data: account });
  expect(registered.status()).toBe(201);
  const { token, user } = (await registered.json()) as { token: string; user: unknown };
  const created = await request.post("/api/session/create", {
    data: { title: `e2e ${account.name}` },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(created.status()).toBe(201);
  const { session_id: sessionId } = (await created.json()) as { session_id: string };
  return { name: account.name, token, user, sessionId };
}

/** Makes every page of `context` start signed in as the host (the keys the app reads). */
export async function signInContext(context: BrowserContext, host: Host) {
  await context.addInitScript(
    ([token, user]) => {
      // Init scripts also run in about:blank, which has no storage.
      if (!location.protocol.startsWith("http")) return;
      localStorage.setItem("token", token);
      localStorage.setItem("user", user);
    },
    [host.token, JSON.stringify(host.user)] as const,
  );
}

/** The editor screen of one user, driven through the keyboard and read through the hook. */
export class EditorScreen {
  constructor(readonly page: Page) {}

  async open(sessionId: string) {
    await this.page.goto(`/code-editor-dashboard/${sessionId}`);
    await this.waitUntilLive();
  }

  /** Connected, synced with the server, and the editor bound and editable. */
  async waitUntilLive() {
    await this.page.waitForFunction(
      () => window.__ensemble?.ready === true && window.__ensemble.connected && window.__ensemble.synced,
      null,
      { timeout: 20_000 },
    );
  }

  /** The text of a workspace file (the current language's main file by default). */
  text(path?: string): Promise<string> {
    return this.page.evaluate((p) => window.__ensemble?.text(p) ?? "", path);
  }

  /** The workspace's file paths, as this browser's document has them. */
  files(): Promise<string[]> {
    return this.page.evaluate(() => window.__ensemble?.files() ?? []);
  }

  /** The path of the file the editor shows. */
  activeFile(): Promise<string | null> {
    return this.page.getByTestId("code-editor").getAttribute("data-file");
  }

  /** The row of a file or folder in the explorer tree. */
  treeItem(path: string) {
    return this.page.locator(`[role="treeitem"][data-path="${path}"]`);
  }

  /** Opens a file from the explorer tree and waits until the editor shows it. */
  async openFile(path: string) {
    const segments = path.split("/");
    for (let i = 1; i < segments.length; i++) {
      const folder = this.treeItem(segments.slice(0, i).join("/"));
      if ((await folder.getAttribute("aria-expanded")) === "false") {
        await folder.locator(":scope > .tree-row").click();
      }
    }
    await this.treeItem(path).locator(":scope > .tree-row").click();
    await expect(this.page.getByTestId("code-editor")).toHaveAttribute("data-file", path);
  }

  /** Creates a file or folder inside `folder` through the explorer's buttons and name box. */
  async create(kind: "file" | "folder", folder: string, name: string) {
    if (folder) await this.treeItem(folder).focus();
    await this.page.getByRole("button", { name: kind === "file" ? "New file" : "New folder" }).click();
    const box = this.page.getByRole("textbox", {
      name: kind === "file" ? "New file name" : "New folder name",
    });
    await box.fill(name);
    await box.press("Enter");
    await expect(this.treeItem(folder ? `${folder}/${name}` : name)).toBeVisible();
  }

  language(): Promise<string | undefined> {
    return this.page.evaluate(() => window.__ensemble?.language);
  }

  get status() {
    return this.page.getByTestId("connection-status");
  }

  /** Focuses the editor and puts the caret at the end of `line` (1-based). */
  async caretToEndOf(line: number) {
    await this.page.locator(".monaco-editor .view-lines").click();
    await this.page.keyboard.press("Control+Home");
    for (let i = 1; i < line; i++) await this.page.keyboard.press("ArrowDown");
    await this.page.keyboard.press("End");
  }

  async type(text: string, delay = 20) {
    await this.page.keyboard.type(text, { delay });
  }

  /** How many updates the session's IndexedDB copy holds (y-indexeddb's `updates` store). */
  storedUpdates(sessionId: string): Promise<number> {
    return this.page.evaluate(
      (name) =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains("updates")) {
              db.close();
              resolve(0);
              return;
            }
            const count = db.transaction("updates", "readonly").objectStore("updates").count();
            count.onsuccess = () => {
              db.close();
              resolve(count.result);
            };
            count.onerror = () => reject(count.error);
          };
        }),
      `ensemble-doc-${sessionId}`,
    );
  }
}

/** Three people in one session, each in their own browser context, every editor live. */
export async function openThree(page: Page, newPage: () => Promise<Page>, sessionId: string) {
  const screens = [
    new EditorScreen(page),
    new EditorScreen(await newPage()),
    new EditorScreen(await newPage()),
  ] as const;
  await Promise.all(screens.map((s) => s.open(sessionId)));
  return screens;
}

/** Polls until every screen shows the same text, and returns it. */
export async function expectConverged(screens: EditorScreen[], predicate: (text: string) => boolean) {
  let agreed = "";
  await expect
    .poll(
      async () => {
        const texts = await Promise.all(screens.map((s) => s.text()));
        const [first = ""] = texts;
        agreed = first;
        return texts.every((t) => t === first) && predicate(first);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return agreed;
}

/** True when the characters of `needle` appear in `haystack` in order (maybe interleaved). */
export function isSubsequence(needle: string, haystack: string): boolean {
  let i = 0;
  for (const char of haystack) if (char === needle[i]) i++;
  return i === needle.length;
}
