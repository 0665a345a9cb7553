import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltUser, buildUser, startTestServer, type TestServer } from "../../../test/harness";
import { hostileHarness } from "./hostileHarness";

/**
 * The same walls for compilers and compiled programs: the compile runs in the program's
 * sandbox with its own limits (docs/sandbox.md, "Compiled languages").
 */
describe("hostile compiles and compiled programs", () => {
  let server: TestServer;
  let user: BuiltUser;
  let uids: number[];
  const { execute, hostileAnswer } = hostileHarness(
    () => server,
    () => user,
    () => uids,
  );

  beforeAll(async () => {
    server = await startTestServer("embedded", { RUN_RATE_MAX: "100000" });
    user = await buildUser(server.api);
    uids = (await server.app.execution.service.sandbox())?.uids ?? [];
    expect(uids.length).toBeGreaterThan(0);
  });
  afterAll(() => server.close());

  it("#include of /dev/zero, /dev/stdin and /etc/shadow: contained, nothing read from the host", async () => {
    const zero = await hostileAnswer("c", '#include "/dev/zero"\nint main(void) { return 0; }\n', {
      compile_timeout: 3000,
    });
    expect(["TO", "SG", "RE"]).toContain(zero.compile?.status);
    expect(zero.run).toBeUndefined();
    const stdin = await hostileAnswer("c", '#include "/dev/stdin"\nint main(void) { return 0; }\n');
    // The compile's stdin is /dev/null: the include is empty, and nothing waits for input.
    expect(stdin.compile?.code).toBe(0);
    expect(stdin.compile?.wall_time).toBeLessThan(5000);
    const shadow = await hostileAnswer("c", '#include "/etc/shadow"\nint main(void) { return 0; }\n');
    expect(shadow.compile?.stderr).toContain("No such file or directory");
    expect(shadow.compile?.stderr).not.toMatch(/root:/);
    expect(shadow.run).toBeUndefined();
  });

  it("compile bombs: template recursion and a huge constant array end at a limit, not on the host", async () => {
    const templates = await hostileAnswer(
      "c++",
      "template <int N> struct F { static const long v = F<N - 1>::v + F<N - 2>::v + F<N - 3>::v; };\n" +
        "template <> struct F<0> { static const long v = 1; };\ntemplate <> struct F<1> { static const long v = 1; };\n" +
        "template <> struct F<2> { static const long v = 1; };\nint main() { return F<100000>::v != 0; }\n",
      { compile_timeout: 5000 },
    );
    expect(templates.compile?.code === 0).toBe(false);
    expect(templates.run).toBeUndefined();
    // 400 MB of initialised data: more than the run's /tmp and RLIMIT_FSIZE can hold.
    const array = await hostileAnswer(
      "c",
      "static char big[400000000] = {1};\nint main(void) { return big[0] - 1; }\n",
    );
    expect(array.compile?.code === 0).toBe(false);
    expect(array.run).toBeUndefined();
    // A flood of errors is cut at the output cap.
    const flood = await hostileAnswer("c", `int main(void) {\n${"x y z;\n".repeat(12000)}}\n`);
    expect(flood.compile?.code === 0).toBe(false);
    expect(Buffer.byteLength(flood.compile?.stderr ?? "")).toBeLessThanOrEqual(64 * 1024);
  });

  it("fork and thread bombs from C and from the JVM: held at the process bound", async () => {
    const fork = await hostileAnswer(
      "c",
      '#include <stdio.h>\n#include <unistd.h>\nint main(void) { int n = 0; while (fork() >= 0) n++; printf("stopped after %d\\n", n); return 0; }\n',
      { run_timeout: 3000 },
    );
    expect(fork.compile?.code).toBe(0);
    expect(["TO", "RE", "SG", null]).toContain(fork.run?.status ?? null);
    const threads = await hostileAnswer(
      "java",
      'public class Main { public static void main(String[] a) { int n = 0; try { while (true) { Thread t = new Thread(() -> { try { Thread.sleep(30000); } catch (InterruptedException e) {} }); t.setDaemon(true); t.start(); n++; } } catch (Throwable e) { System.out.println("stopped after " + n); } } }\n',
      { run_timeout: 5000 },
    );
    expect(threads.compile?.code).toBe(0);
    expect(threads.run?.stdout ?? "").toMatch(/^stopped after \d+|^$/);
  });

  it("Go's build cache and a Rust program filling the disk: stopped at the run's own /tmp, gone with the run", async () => {
    const goFill =
      'package main\nimport (\n"fmt"\n"os"\n"path/filepath"\n)\nfunc main() {\nbuf := make([]byte, 1<<20)\n' +
      'for n := 0; ; n++ {\nf, err := os.Create(filepath.Join(os.Getenv("GOCACHE"), fmt.Sprintf("fill-%d", n)))\n' +
      'if err == nil {\n_, err = f.Write(buf)\nf.Close()\n}\nif err != nil {\nfmt.Println("stopped after", n, "MiB:", err)\nreturn\n}\n}\n}\n';
    const go = await hostileAnswer("go", goFill, { run_timeout: 10_000 });
    expect(go.compile?.code).toBe(0);
    expect(go.run?.stdout).toMatch(/^stopped after \d+ MiB: .*(no space left on device|file too large)/);
    const rustFill =
      'use std::io::Write;\nfn main() {\nlet mut f = std::fs::File::create("/tmp/fill").unwrap();\nlet buf = vec![1u8; 1 << 20];\n' +
      'for n in 0.. {\nif let Err(e) = f.write_all(&buf) {\nprintln!("stopped after {} MiB: {}", n, e);\nreturn;\n}\n}\n}\n';
    const rust = await hostileAnswer("rust", rustFill, { run_timeout: 10_000 });
    expect(rust.compile?.code).toBe(0);
    // Past RLIMIT_FSIZE the kernel sends SIGXFSZ; below it the tmpfs fills first.
    if (rust.run?.signal === null) expect(rust.run.stdout).toMatch(/^stopped after \d+ MiB/);
    else expect(rust.run?.signal).toBe("SIGXFSZ");
    // The next run has an empty /tmp and cache of its own, and builds as usual.
    const after = await execute(
      "go",
      'package main\nimport (\n"fmt"\n"os"\n"path/filepath"\n)\nfunc main() {\n_, fill := os.Stat(filepath.Join(os.Getenv("GOCACHE"), "fill-0"))\n_, tmp := os.Stat("/tmp/fill")\nfmt.Println(os.IsNotExist(fill), os.IsNotExist(tmp))\n}\n',
    );
    expect(after.status).toBe(200);
    expect((after.body.run as { stdout: string }).stdout).toBe("true true\n");
  });
});
