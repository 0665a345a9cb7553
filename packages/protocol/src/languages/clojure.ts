import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Debian's Clojure jar; its manifest brings spec.alpha and core.specs.alpha from /usr/share. */
const CLOJURE_JAR = "/usr/share/java/clojure-1.11.jar";

/** Clojure scripts on Debian's Clojure, on the JDK. */
export const clojure = {
  id: "clojure",
  name: "Clojure",
  aliases: ["clojure", "clj"],
  extensions: ["clj"],
  mainFile: "main.clj",
  starter: ';; Welcome to Ensemble: edit together, run, review.\n(println "Hello, world!")\n',
  monaco: "clojure",
  iconColor: "#5881d8",
  debianPackages: ["libclojure-java", "default-jre-headless"],
  // `java`, not Debian's `clojure` script: that runs `java` by PATH, an /etc/alternatives link
  // the sandbox cannot follow; the server resolves it on the host. The jar by its versioned
  // name for the same reason (clojure.jar is an alternative). A JVM needs its security file,
  // which Debian keeps in /etc: the server gives the run a minimal one (execution/jvm.ts).
  // Serial GC and the first JIT tier: a script's run is short, and starts a second sooner.
  run: {
    command: "java",
    args: ["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", CLOJURE_JAR, "clojure.main", "{file}"],
  },
  // "1.11.1"
  version: {
    command: "java",
    args: [
      "-XX:+UseSerialGC",
      "-XX:TieredStopAtLevel=1",
      "-cp",
      CLOJURE_JAR,
      "clojure.main",
      "-e",
      "(print (clojure-version))",
    ],
    parse: coerceVersion,
  },
} as const satisfies LanguageRecord;
