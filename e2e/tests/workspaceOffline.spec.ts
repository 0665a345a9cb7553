import { WORKSPACE_LIMITS, WORKSPACE_MESSAGES } from "@ensemble/protocol";
import type { EditorScreen } from "../support/editor";
import { expect, test } from "../support/fixtures";

/** Deletes a file or folder through the tree's Delete key and the confirmation. */
async function deleteItem(screen: EditorScreen, path: string) {
  await screen.treeItem(path).focus();
  await screen.page.keyboard.press("Delete");
  await screen.page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(screen.treeItem(path)).toHaveCount(0);
}

/** Renames through F2 and the name box. */
async function renameItem(screen: EditorScreen, path: string, name: string) {
  await screen.treeItem(path).focus();
  await screen.page.keyboard.press("F2");
  const box = screen.page.getByRole("textbox", { name: `New name for ${path}` });
  await box.fill(name);
  await box.press("Enter");
}

/** Presses the Undo of the toast that says `message` (toasts slide while others come and go). */
async function undo(screen: EditorScreen, message: string) {
  const button = screen.page
    .locator(".Toastify__toast", { hasText: message })
    .getByRole("button", { name: "Undo" });
  await button.focus();
  await screen.page.keyboard.press("Enter");
}

/** Pastes `text` where the editor's caret is, as a clipboard paste does. */
function paste(screen: EditorScreen, text: string) {
  return screen.page.evaluate((pasted) => {
    const data = new DataTransfer();
    data.setData("text/plain", pasted);
    // Monaco's input element (its EditContext node) has the focus.
    document.activeElement?.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

test.describe("files offline, undo, and the size limit", () => {
  // Each test drives two browsers through several round trips (and one 1 MiB file).
  test.describe.configure({ timeout: 180_000 });
  test("files created, renamed and deleted offline reach the others when back, text and all", async ({
    twoEditors,
  }) => {
    const { host, guest } = await twoEditors();
    await host.create("file", "src", "old.js");
    await expect.poll(() => guest.files()).toEqual(["src/main.js", "src/old.js"]);

    await host.page.context().setOffline(true);
    await expect(host.status).toHaveText("OFFLINE");
    await expect(host.page.locator(".explorer-note")).toContainText("sent when the connection is back");
    // A new file opens, and what is typed in it is kept with it.
    await host.create("file", "src", "offline.js");
    await expect(host.page.getByTestId("code-editor")).toHaveAttribute("data-file", "src/offline.js");
    await host.caretToEndOf(1);
    await host.type("const madeOffline = true;");
    await renameItem(host, "src/main.js", "app.js");
    await expect(host.treeItem("src/app.js")).toBeVisible();
    await deleteItem(host, "src/old.js");
    // A delete made offline and undone at once: it never leaves this browser.
    await host.create("file", "src", "brief.js");
    await deleteItem(host, "src/brief.js");
    await undo(host, 'Deleted "src/brief.js".');
    await expect(host.treeItem("src/brief.js")).toBeVisible();
    expect(await host.files()).toEqual(["src/app.js", "src/brief.js", "src/offline.js"]);

    // Meanwhile the guest types in the file the host renamed.
    await guest.caretToEndOf(1);
    await guest.type(" // guest was here");
    expect(await guest.files()).toEqual(["src/main.js", "src/old.js"]);

    await host.page.context().setOffline(false);
    await expect(host.status).toHaveText("CONNECTED", { timeout: 15_000 });
    await expect(host.page.locator(".explorer-note")).toHaveCount(0);
    const merged = ["src/app.js", "src/brief.js", "src/offline.js"];
    await expect.poll(() => guest.files(), { timeout: 15_000 }).toEqual(merged);
    await expect.poll(() => host.files()).toEqual(merged);
    await expect.poll(() => guest.text("src/offline.js")).toContain("const madeOffline = true;");
    await expect.poll(() => host.text("src/app.js")).toContain("// guest was here");
    // The merged tree is the server's: a newcomer sees the same.
    await host.page.reload();
    await host.waitUntilLive();
    expect(await host.files()).toEqual(merged);
  });

  test("a deleted file comes back with its text through Undo, for everyone, and lives on", async ({
    twoEditors,
  }) => {
    const { host, guest } = await twoEditors();
    await host.create("file", "src", "keep.js");
    await host.caretToEndOf(1);
    await host.type("const kept = 1;");
    await expect.poll(() => guest.text("src/keep.js")).toBe("const kept = 1;");

    await deleteItem(host, "src/keep.js");
    await expect.poll(() => guest.files()).toEqual(["src/main.js"]);
    // Only the person who deleted it is offered Undo.
    await expect(guest.page.getByRole("button", { name: "Undo" })).toHaveCount(0);
    await undo(host, 'Deleted "src/keep.js".');
    await expect.poll(() => guest.files()).toEqual(["src/keep.js", "src/main.js"]);
    await expect.poll(() => guest.text("src/keep.js")).toBe("const kept = 1;");
    // Its text lives on: the guest's edit reaches the host.
    await guest.openFile("src/keep.js");
    await guest.caretToEndOf(1);
    await guest.type(" // after undo");
    await expect.poll(() => host.text("src/keep.js")).toBe("const kept = 1; // after undo");

    // A rename is undone the same way.
    await renameItem(host, "src/keep.js", "kept.js");
    await expect.poll(() => guest.files()).toEqual(["src/kept.js", "src/main.js"]);
    await undo(host, 'Renamed "src/keep.js" to "src/kept.js".');
    await expect.poll(() => guest.files()).toEqual(["src/keep.js", "src/main.js"]);
    expect(await guest.text("src/keep.js")).toBe("const kept = 1; // after undo");
  });

  test("a folder of more than 1 MB of text comes back through Undo, online and offline, text and all", async ({
    twoEditors,
  }) => {
    const { host, guest } = await twoEditors();
    await host.create("folder", "", "big");
    // Two files of 600 kB each: the folder holds more than one socket message.
    const texts = new Map(
      ["big/one.txt", "big/two.txt"].map((path, i) => [path, `${String(i).repeat(99)}\n`.repeat(6000)]),
    );
    for (const [path, text] of texts) {
      await host.create("file", "big", path.slice("big/".length));
      await host.caretToEndOf(1);
      await paste(host, text);
      await expect.poll(() => guest.text(path), { timeout: 30_000 }).toBe(text);
    }
    const hasAll = async (screen: EditorScreen) => {
      for (const [path, text] of texts) if ((await screen.text(path)) !== text) return false;
      return true;
    };

    await deleteItem(host, "big");
    await expect.poll(() => guest.files()).toEqual(["src/main.js"]);
    await undo(host, 'Deleted "big".');
    await expect
      .poll(() => guest.files(), { timeout: 15_000 })
      .toEqual(["big/one.txt", "big/two.txt", "src/main.js"]);
    await expect.poll(() => hasAll(guest), { timeout: 30_000 }).toBe(true);
    expect(await hasAll(host)).toBe(true);

    // Deleted online, undone offline: the restore waits in the queue, the texts with it.
    await deleteItem(host, "big");
    await expect.poll(() => guest.files()).toEqual(["src/main.js"]);
    await host.page.context().setOffline(true);
    await expect(host.status).toHaveText("OFFLINE");
    await undo(host, 'Deleted "big".');
    await expect(host.treeItem("big/one.txt")).toBeVisible();
    await host.page.context().setOffline(false);
    await expect(host.status).toHaveText("CONNECTED", { timeout: 15_000 });
    await expect
      .poll(() => guest.files(), { timeout: 15_000 })
      .toEqual(["big/one.txt", "big/two.txt", "src/main.js"]);
    await expect.poll(() => hasAll(guest), { timeout: 30_000 }).toBe(true);
    expect(await hasAll(host)).toBe(true);
    await expect(host.status).toHaveText("CONNECTED");
  });

  test("typing at the size limit: the editor refuses the change, says why, and loses nothing", async ({
    twoEditors,
  }) => {
    const { host, guest } = await twoEditors();
    await host.create("file", "", "big.txt");
    await host.caretToEndOf(1);
    const limit = WORKSPACE_LIMITS.maxFileBytes;
    const line = `${"x".repeat(99)}\n`;
    const body = line.repeat(Math.floor((limit - 10) / line.length));
    // Pasted in two halves (one change must fit in one socket message; typing a megabyte
    // would take an hour).
    const content = body + "y".repeat(limit - 10 - body.length);
    const half = Math.floor(content.length / 2);
    await paste(host, content.slice(0, half));
    await expect.poll(async () => (await host.text("big.txt")).length).toBe(half);
    await paste(host, content.slice(half));
    await expect.poll(async () => (await guest.text("big.txt")).length, { timeout: 30_000 }).toBe(limit - 10);
    await host.page.keyboard.press("Control+End");
    await host.type("0123456789");
    await expect.poll(async () => (await guest.text("big.txt")).slice(-12)).toBe("yy0123456789");

    // One byte more: refused in the editor, with the reason, and never sent.
    await host.type("!");
    await expect(
      host.page.getByText(`${WORKSPACE_MESSAGES.fileTooLarge} This change was not made.`),
    ).toBeVisible();
    expect((await host.text("big.txt")).slice(-3)).toBe("789");
    // The editor shows what the document holds: the next keys edit from there, and arrive.
    await host.page.keyboard.press("Backspace");
    await host.page.keyboard.press("Backspace");
    await host.type("ab");
    await expect.poll(async () => (await guest.text("big.txt")).slice(-10)).toBe("01234567ab");
    expect((await host.text("big.txt")).length).toBe(limit);
    await expect(host.status).toHaveText("CONNECTED");
  });
});
