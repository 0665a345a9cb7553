import { describe, expect, it } from "vitest";
import { loadConfig } from "../../env";
import { cpuWeight } from "./cgroups";
import { buildLaunch, expandCommand } from "./launch";
import { sandboxConfig } from "./local";
import type { LocalRuntime } from "./runtimes";
import { outcome } from "./sandbox";
import { StageSplitter } from "./stages";

// The defaults: 64 processes, 256 files, 10 MB file size, 16 MiB tmpfs.
const config = sandboxConfig(loadConfig({}));

const python: LocalRuntime = {
  id: "python",
  language: "python",
  version: "3.11.2",
  aliases: ["py"],
  defaultFile: "main.py",
  extensions: ["py"],
  run: ["/usr/bin/python3.11", "-E", "-s", "-u", "-B", "{file}"],
  env: {},
  extraFiles: [],
  limits: {},
};

const c: LocalRuntime = {
  id: "python",
  language: "c",
  version: "12.2.0",
  aliases: ["gcc"],
  defaultFile: "main.c",
  extensions: ["c"],
  compile: ["/usr/bin/gcc", "-o", "{out}/{stem}", "{sources}", "-lm"],
  run: ["{out}/{stem}"],
  env: { CACHE: "{out}/cache" },
  extraFiles: [],
  limits: {},
};

const job = {
  runtime: python,
  files: [
    { name: "main.py", content: Buffer.from("print(1)") },
    { name: "lib.py", content: Buffer.from("") },
  ],
  args: ["a b", "$(rm -rf /)"],
  stdin: "",
  timeoutMs: 1000,
  cpuTimeMs: 2500,
  memoryBytes: 1 << 28,
};

describe("buildLaunch", () => {
  it("raises RLIMIT_FSIZE for a runtime whose record needs more, never lowers it", () => {
    const beam = { ...python, limits: { fileSizeBytes: 1 << 26 } };
    const plan = buildLaunch(config, { ...job, runtime: beam }, { uid: 62001, cgroup: undefined });
    expect(plan.rlimits).toContainEqual(["FSIZE", 1 << 26, 1 << 26]);
    const small = { ...python, limits: { fileSizeBytes: 1000 } };
    const smallPlan = buildLaunch(config, { ...job, runtime: small }, { uid: 62001, cgroup: undefined });
    expect(smallPlan.rlimits).toContainEqual(["FSIZE", 10_000_000, 10_000_000]);
  });

  it("sets rlimits, drops to the slot's uid, then bwraps with / read-only last", () => {
    const plan = buildLaunch(config, job, { uid: 62001, cgroup: fakeCgroup(["/cg/memory/procs"]) });
    expect(plan.uid).toBe(62001);
    expect(plan.rlimits).toEqual([
      // 256 for the program, one more per file the launch holds until bwrap copied it.
      ["NOFILE", 258, 258],
      ["FSIZE", 10_000_000, 10_000_000],
      ["CORE", 0, 0],
      ["CPU", 3, 4],
      ["NPROC", 64, 64],
    ]);
    const bwrap = plan.argv;
    expect(bwrap[0]).toBe("/usr/bin/bwrap");
    for (const flag of [
      "--unshare-all",
      "--unshare-user",
      "--disable-userns",
      "--die-with-parent",
      "--new-session",
      "--clearenv",
    ]) {
      expect(bwrap).toContain(flag);
    }
    const python = bwrap.indexOf("/usr/bin/python3.11");
    expect(bwrap.slice(python - 6, python)).toEqual([
      "--remount-ro",
      "/dev",
      "--remount-ro",
      "/",
      "--chdir",
      "/box",
    ]);
    expect(bwrap.slice(python)).toEqual([
      "/usr/bin/python3.11",
      "-E",
      "-s",
      "-u",
      "-B",
      "/box/main.py",
      "a b",
      "$(rm -rf /)",
    ]);
    expect(bwrap.join(" ")).toContain("--file 3 /box/main.py");
    expect(bwrap.join(" ")).toContain("--file 4 /box/lib.py");
    expect(bwrap).not.toContain("/etc");
    expect(plan.files.map((f) => Buffer.from(f, "base64").toString())).toEqual(["print(1)", ""]);
  });

  it("without root keeps the server's uid and holds the run's processes inside the sandbox; without cgroups bounds address space", () => {
    const plan = buildLaunch(config, job, { uid: undefined, cgroup: undefined });
    expect(plan.uid).toBeNull();
    // Not on the launcher, where the uid's count includes the server's own threads...
    expect(plan.rlimits.map(([name]) => name)).not.toContain("NPROC");
    expect(plan.rlimits).toContainEqual(["AS", 1073741824, 1073741824]);
    // ...but inside bwrap's user namespace, right before the interpreter.
    const python = plan.argv.indexOf("/usr/bin/python3.11");
    expect(plan.argv.slice(python - 5, python)).toEqual([
      "--chdir",
      "/box",
      "/usr/bin/prlimit",
      "--nproc=64:64",
      "--",
    ]);
  });

  it("with a uid of the slot's own sets RLIMIT_NPROC on the launcher only", () => {
    const plan = buildLaunch(config, job, { uid: 62001, cgroup: undefined });
    expect(plan.argv).not.toContain("/usr/bin/prlimit");
  });
});

describe("a compiled language's launch", () => {
  const project = {
    ...job,
    runtime: c,
    files: [
      { name: "src/main.c", content: Buffer.from("int main(){}") },
      { name: "src/util/b.c", content: Buffer.from("") },
      { name: "src/a.c", content: Buffer.from("") },
      { name: "src/a.h", content: Buffer.from("") },
      { name: "other/x.c", content: Buffer.from("") },
    ],
    args: ["it's"],
    compile: { timeoutMs: 10_000, cpuTimeMs: 6000, memoryBytes: 1 << 29 },
  };

  it("compiles the entry's folder (entry first), then runs what it built, in one shell with a marker", () => {
    expect(expandCommand(c.compile ?? [], project)).toEqual([
      "/usr/bin/gcc",
      "-o",
      "/tmp/out/main",
      "/box/src/main.c",
      "/box/src/a.c",
      "/box/src/util/b.c",
      "-lm",
    ]);
    const plan = buildLaunch(config, project, { uid: 62001, cgroup: undefined });
    expect(plan.nonce).toMatch(/^[0-9a-f]{24}$/);
    // The launch's CPU bound is the longer stage's; the shell sets each stage's own.
    expect(plan.rlimits).toContainEqual(["CPU", 6, 7]);
    const sh = plan.argv.indexOf("/bin/sh");
    expect(plan.argv.slice(sh, sh + 2)).toEqual(["/bin/sh", "-c"]);
    const script = plan.argv[sh + 2] ?? "";
    expect(script).toContain("(ulimit -t 6; exec '/usr/bin/gcc' '-o' '/tmp/out/main' '/box/src/main.c'");
    expect(script).toContain(`printf '\\036ENSEMBLE-%s-%s\\036' '${plan.nonce}' "$s" >&2`);
    expect(script).toContain("ulimit -t 3\nexec '/tmp/out/main' 'it'\\''s'");
    expect(plan.argv).toHaveLength(sh + 3);
    expect(plan.argv.join(" ")).toContain("--setenv CACHE /tmp/out/cache");
    expect(plan.argv.join(" ")).toContain("--tmpfs /tmp --dir /tmp/out");
  });

  it("asks for colour only when the terminal renders the output: TERM, FORCE_COLOR and the compiler's flags", () => {
    const runtime = { ...c, compileColour: ["-fdiagnostics-color=always"] };
    const script = (colour: boolean) => {
      const plan = buildLaunch(config, { ...project, runtime, colour }, { uid: 62001, cgroup: undefined });
      return { argv: plan.argv.join(" "), script: plan.argv[plan.argv.indexOf("/bin/sh") + 2] ?? "" };
    };
    const plain = script(false);
    expect(plain.argv).not.toContain("FORCE_COLOR");
    expect(plain.script).not.toContain("-fdiagnostics-color");
    const coloured = script(true);
    expect(coloured.argv).toContain("--setenv TERM xterm-256color --setenv FORCE_COLOR 1");
    expect(coloured.script).toContain("'-lm' '-fdiagnostics-color=always'");
  });

  it("binds a record's systemPaths read-only, before / is remounted read-only, and nothing of /etc otherwise", () => {
    const java = { ...c, systemPaths: ["/etc/java-17-openjdk"] };
    const argv = buildLaunch(config, { ...project, runtime: java }, { uid: 62001, cgroup: undefined }).argv;
    const at = argv.indexOf("/etc/java-17-openjdk");
    expect(argv.slice(at - 1, at + 2)).toEqual([
      "--ro-bind-try",
      "/etc/java-17-openjdk",
      "/etc/java-17-openjdk",
    ]);
    expect(at).toBeLessThan(argv.lastIndexOf("--remount-ro"));
    const etc = argv.filter((arg) => arg.startsWith("/etc"));
    expect(new Set(etc)).toEqual(new Set(["/etc/ld.so.cache", "/etc/java-17-openjdk"]));
    const plain = buildLaunch(config, project, { uid: 62001, cgroup: undefined }).argv;
    expect(plain.filter((arg) => arg.startsWith("/etc"))).toEqual(["/etc/ld.so.cache", "/etc/ld.so.cache"]);
  });

  it("splits each stream at its marker, held across chunks, and hides the marker", () => {
    const seen: string[] = [];
    let code: number | undefined;
    const splitter = new StageSplitter("abc", {
      output: (stage, stream, chunk) => seen.push(`${stage}/${stream}:${chunk}`),
      compiled: (c) => {
        code = c;
      },
    });
    splitter.push("stderr", Buffer.from("warn\x1eENSE"));
    splitter.push("stderr", Buffer.from("MBLE-abc-"));
    splitter.push("stdout", Buffer.from("\x1eENSEMBLE-zzz-0\x1e"));
    expect(code).toBeUndefined();
    splitter.push("stderr", Buffer.from("0\x1eprogram err"));
    splitter.push("stdout", Buffer.from("\x1eENSEMBLE-abc-0\x1ehello"));
    splitter.flush();
    expect(code).toBe(0);
    expect(seen).toEqual([
      "compile/stderr:warn",
      // A separator that may open a marker waits for the next chunk.
      "compile/stdout:\x1eENSEMBLE-zzz-0",
      "run/stderr:program err",
      "compile/stdout:\x1e",
      "run/stdout:hello",
    ]);
  });
});

describe("cpuWeight", () => {
  it("scales as the kernel scales nice, never below the controller's minimum", () => {
    expect(cpuWeight(0, 1024)).toBe(1024);
    expect(cpuWeight(10, 1024)).toBe(110);
    expect(cpuWeight(10, 100)).toBe(11);
    expect(cpuWeight(19, 100)).toBe(1);
    expect(cpuWeight(40, 1024)).toBe(2);
  });
});

describe("outcome", () => {
  it("speaks Piston's status vocabulary", () => {
    expect(outcome(undefined, { code: 0, signal: null }, false, 1000)).toEqual({
      code: 0,
      signal: null,
      status: null,
      message: null,
    });
    expect(outcome(undefined, { code: 1, signal: null }, false, 1000)).toMatchObject({
      code: 1,
      status: "RE",
    });
    expect(outcome("timeout", { code: null, signal: "SIGKILL" }, false, 1000)).toMatchObject({
      code: null,
      signal: "SIGKILL",
      status: "TO",
    });
    expect(outcome("stdout", { code: null, signal: "SIGKILL" }, false, 1000)).toMatchObject({ status: "OL" });
    expect(outcome("stderr", { code: null, signal: "SIGKILL" }, false, 1000)).toMatchObject({ status: "EL" });
    expect(outcome(undefined, { code: 137, signal: null }, true, 1000)).toMatchObject({
      status: "SG",
      message: "Memory limit exceeded",
    });
    expect(outcome(undefined, { code: 139, signal: null }, false, 1000)).toMatchObject({
      code: null,
      signal: "SIGSEGV",
      status: "SG",
    });
    expect(outcome(undefined, { code: 152, signal: null }, false, 1000)).toMatchObject({
      signal: "SIGXCPU",
      status: "TO",
    });
  });
});

function fakeCgroup(procsFiles: string[]) {
  return {
    procsFiles,
    begin: async () => true,
    limit: async () => true,
    collect: async () => ({ memory: null, isOomKilled: false, cpuMs: null }),
    release: async () => {},
  };
}
