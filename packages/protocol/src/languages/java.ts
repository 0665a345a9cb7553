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

/**
 * The compile, as a shell script ($1 is {out}, then {sources}, the entry first). javac wants a
 * public class in a file of its name, but Piston runs any file (its own test is `test.java`
 * holding `public class HelloWorld`): such a file is compiled as a copy named after its class.
 * The class to run, the entry's public class (else its stem) in its package, is written to
 * {out}/main-class, which the run reads as a java @argfile. javac by its path: the /usr/bin
 * link goes through /etc/alternatives, which the sandbox does not have.
 */
const COMPILE = `out=$1
shift
n=0
main=
for f do
  name=\${f##*/}
  class=$(sed -n -E 's/^[[:space:]]*public[[:space:]]+((abstract|final|sealed|strictfp)[[:space:]]+)*(class|interface|enum|record)[[:space:]]+([A-Za-z_$][A-Za-z0-9_$]*).*/\\4/p' "$f" | head -n 1)
  if [ -z "$main" ]; then
    package=$(sed -n -E 's/^[[:space:]]*package[[:space:]]+([A-Za-z0-9_.]+)[[:space:]]*;.*/\\1/p' "$f" | head -n 1)
    main=\${package:+$package.}\${class:-\${name%.*}}
  fi
  if [ -n "$class" ] && [ "$class.java" != "$name" ]; then
    n=$((n + 1))
    mkdir -p "/tmp/java/$n" && cp "$f" "/tmp/java/$n/$class.java" && f="/tmp/java/$n/$class.java"
  fi
  set -- "$@" "$f"
  shift
done
printf '%s\\n' "$main" > "$out/main-class"
exec /usr/lib/jvm/default-java/bin/javac ${JVM.map((flag) => `-J${flag}`).join(" ")} -J-XX:TieredStopAtLevel=1 -encoding UTF-8 -d "$out" "$@"`;

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
  // default-jdk-headless: the /usr/lib/jvm/default-java link the compile uses.
  debianPackages: ["openjdk-17-jdk-headless", "default-jdk-headless"],
  install: "default",
  // Debian's JDK reads its configuration (java.security above all) through links into /etc.
  systemPaths: ["/etc/java-17-openjdk"],
  compile: { command: "sh", args: ["-c", COMPILE, "javac", "{out}", "{sources}"] },
  run: { command: "java", args: [...JVM, "-cp", "{out}", "@{out}/main-class"] },
  limits: { compileTimeoutMs: 20_000, runMemoryBytes: 512 * 1024 * 1024 },
  version: { command: "javac", args: ["-version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
