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
  const { hostileAnswer } = hostileHarness(
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
});
