import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

// A JVM sizes itself from the host, not from the run's limits (the sandbox has no /sys): a
// fixed heap, a small class space and the serial collector (no GC threads) keep it within
// the memory limit and the sandbox's process count, and start it faster. The JVM's own
// warnings (a thread it could not start) go to stderr, not into the program's stdout.
const JVM = [
  "-Xmx256m",
  "-XX:CompressedClassSpaceSize=64m",
  "-XX:+UseSerialGC",
  "-XX:-UsePerfData",
  "-Xlog:disable",
  "-Xlog:all=warning:stderr",
];

/** Java on Debian's OpenJDK: every `.java` of the entry's folder is compiled, then the entry's class runs. */
export const java = {
  id: "java",
  name: "Java",
  aliases: [],
  extensions: ["java"],
  mainFile: "Main.java",
  starter:
    '// Welcome to Ensemble: edit together, run, review.\npublic class Main {\n  public static void main(String[] args) {\n    System.out.println("Hello, world!");\n  }\n}\n',
  monaco: "java",
  iconColor: "#b07219",
  debianPackages: ["openjdk-17-jdk-headless"],
  install: "default",
  // Debian's JDK reads its configuration (java.security above all) through links into /etc.
  systemPaths: ["/etc/java-17-openjdk"],
  compile: {
    command: "javac",
    args: [
      ...JVM.map((flag) => `-J${flag}`),
      "-J-XX:TieredStopAtLevel=1",
      "-encoding",
      "UTF-8",
      "-d",
      "{out}",
      "{sources}",
    ],
  },
  run: { command: "java", args: [...JVM, "-cp", "{out}", "{stem}"] },
  limits: {
    compileTimeoutMs: 20_000,
    compileMemoryBytes: 512 * 1024 * 1024,
    runMemoryBytes: 512 * 1024 * 1024,
  },
  version: { command: "javac", args: ["-version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
