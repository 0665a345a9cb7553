import { isLanguage } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, waitFor } from "../../../test/collabClient";
import { startTestServer, type TestServer } from "../../../test/harness";

/**
 * runDiagnostics on the real server and sandbox: a run's traceback marks its line for
 * everyone, a late joiner gets the marks, and the next run clears them. The parsers
 * themselves are unit-tested in the protocol package.
 */
describe("a run's diagnostics", () => {
  let server: TestServer;
  const editors = editorPool(() => server.url);

  beforeAll(async () => {
    server = await startTestServer("embedded", { RUN_RATE_MAX: "1000" });
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  it("marks a Python traceback's line for everyone, keeps it for a late joiner, and clears it with the next run", async () => {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "diagnostics");
    const broken = 'print("start")\nvalue = 1\nprint(undefined_name)\n';
    expect(
      await host.request("createFile", { sessionId, path: "src/main.py", kind: "file", content: broken }),
    ).toMatchObject({ ok: true });
    await waitFor(() => guest.text("src/main.py") === broken);

    expect(await guest.request("runCode", { sessionId, file: "src/main.py" }, 30_000)).toMatchObject({
      ok: true,
    });
    const marked = {
      sessionId,
      runId: expect.any(String),
      diagnostics: [
        {
          path: "src/main.py",
          line: 3,
          severity: "error",
          message: "NameError: name 'undefined_name' is not defined",
        },
      ],
    };
    for (const editor of [host, guest]) {
      await waitFor(() => editor.events("runDiagnostics").length === 2);
      // Cleared as the run started, then the run's own.
      expect(editor.events("runDiagnostics")).toEqual([{ sessionId, diagnostics: [] }, marked]);
    }

    const late = await editors.open();
    await late.join(sessionId);
    late.send("getTerminalHistory", sessionId);
    expect(await late.waitFor("runDiagnostics")).toEqual(marked);

    const text = host.file("src/main.py");
    text.delete(0, text.length);
    text.insert(0, 'print("fixed")\n');
    await waitFor(() => guest.text("src/main.py") === 'print("fixed")\n');
    expect(await host.request("runCode", { sessionId, file: "src/main.py" }, 30_000)).toMatchObject({
      ok: true,
      data: { run: { stdout: "fixed\n" } },
    });
    for (const editor of [host, guest, late]) {
      await waitFor(() => editor.events("runDiagnostics").at(-1)?.diagnostics.length === 0);
    }
    const again = await editors.open();
    await again.join(sessionId);
    again.send("getTerminalHistory", sessionId);
    expect(await again.waitFor("runDiagnostics")).toEqual({ sessionId, diagnostics: [] });
  });

  it("marks a Node error at the innermost frame in the workspace, in another file than the entry", async () => {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "diagnostics-node");
    const lib = 'exports.parse = (s) => {\n  if (!s) throw new TypeError("empty input");\n};\n';
    expect(
      await host.request("createFile", { sessionId, path: "src/lib.js", kind: "file", content: lib }),
    ).toMatchObject({ ok: true });
    const main = host.file("src/main.js");
    main.delete(0, main.length);
    main.insert(0, 'const { parse } = require("./lib");\nparse("");\n');
    await waitFor(
      () => guest.text("src/main.js").startsWith("const { parse }") && guest.text("src/lib.js") === lib,
    );

    expect(await host.request("runCode", { sessionId, file: "src/main.js" }, 30_000)).toMatchObject({
      ok: true,
    });
    const marks = await guest.waitFor("runDiagnostics", ({ diagnostics }) => diagnostics.length > 0);
    expect(marks.diagnostics).toEqual([
      { path: "src/lib.js", line: 2, column: 17, severity: "error", message: "TypeError: empty input" },
    ]);
  });

  it("marks nothing for a run someone stopped", async () => {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "diagnostics-stop");
    const slow = "import time\nprint('waiting', flush=True)\ntime.sleep(30)\n";
    expect(
      await host.request("createFile", { sessionId, path: "src/main.py", kind: "file", content: slow }),
    ).toMatchObject({ ok: true });
    const run = host.request("runCode", { sessionId, file: "src/main.py" }, 30_000);
    await waitFor(() =>
      guest
        .events("terminalUpdate")
        .some((u) => (u.entries ?? [u.entry]).some((e) => e?.content.includes("waiting"))),
    );
    expect(await guest.request("stopRun", { sessionId })).toEqual({ ok: true, data: null });
    await run;
    await waitFor(() => guest.events("runStateUpdate").at(-1)?.isRunning === false);
    // The KeyboardInterrupt traceback reached the terminal, but no line is marked.
    const printed = guest
      .events("terminalUpdate")
      .flatMap((u) => u.entries ?? (u.entry ? [u.entry] : []))
      .map((e) => e.content)
      .join("");
    expect(printed).toContain('File "/box/src/main.py", line 3');
    expect(printed).toContain("KeyboardInterrupt");
    expect(guest.events("runDiagnostics")).toEqual([{ sessionId, diagnostics: [] }]);
  });

  // Runs once the C record is in (the compiled languages' branch): until then there is no C to compile.
  it.skipIf(!isLanguage("c"))(
    "marks a C compile error for everyone; the fixed program's run clears it",
    async () => {
      const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "diagnostics-c");
      const broken = '#include <stdio.h>\nint main(void) {\n  printf("%d\\n", missing);\n  return 0;\n}\n';
      expect(
        await host.request("createFile", { sessionId, path: "src/main.c", kind: "file", content: broken }),
      ).toMatchObject({ ok: true });
      await waitFor(() => guest.text("src/main.c") === broken);

      expect(await guest.request("runCode", { sessionId, file: "src/main.c" }, 60_000)).toMatchObject({
        ok: true,
      });
      for (const editor of [host, guest]) {
        const marks = await editor.waitFor(
          "runDiagnostics",
          ({ diagnostics }) => diagnostics.length > 0,
          60_000,
        );
        expect(marks.diagnostics).toEqual([
          {
            path: "src/main.c",
            line: 3,
            column: 18,
            severity: "error",
            message: "‘missing’ undeclared (first use in this function)",
          },
        ]);
      }
      // The terminal renders colours, so gcc was asked for them; the marks above read through them.
      const printed = guest
        .events("terminalUpdate")
        .flatMap((u) => u.entries ?? (u.entry ? [u.entry] : []))
        .map((e) => e.content)
        .join("");
      expect(printed).toContain("\u001b[01;31m\u001b[Kerror: ");

      const text = host.file("src/main.c");
      text.delete(0, text.length);
      text.insert(0, '#include <stdio.h>\nint main(void) {\n  printf("fixed\\n");\n  return 0;\n}\n');
      await waitFor(() => guest.text("src/main.c").includes("fixed"));
      expect(await host.request("runCode", { sessionId, file: "src/main.c" }, 60_000)).toMatchObject({
        ok: true,
        data: { run: { stdout: "fixed\n" } },
      });
      for (const editor of [host, guest]) {
        await waitFor(() => editor.events("runDiagnostics").at(-1)?.diagnostics.length === 0);
      }
    },
  );
});
