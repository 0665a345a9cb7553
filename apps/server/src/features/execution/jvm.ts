import fs from "node:fs/promises";
import path from "node:path";
import type { ExtraFile } from "./launch";

/**
 * The JDK's standard security providers and nothing else: no site policy, no disabled
 * algorithms list. Enough for what programs use (SecureRandom, MessageDigest, UUIDs, TLS
 * classes), and nothing to reach with: runs have no network.
 */
const MINIMAL_SECURITY = [
  "security.provider.1=SUN",
  "security.provider.2=SunRsaSign",
  "security.provider.3=SunEC",
  "security.provider.4=SunJSSE",
  "security.provider.5=SunJCE",
  "securerandom.source=file:/dev/random",
  "securerandom.strongAlgorithms=NativePRNGBlocking:SUN,DRBG:SUN",
  "",
].join("\n");

/**
 * Debian links a JDK's `conf/security/java.security` to /etc/java-<n>-openjdk/, which the
 * sandbox does not have, and a JVM without it does not start ("Error loading java.security
 * file"). For the JVM at `javaBinary`, a minimal file where the link points; none when the file
 * is the JDK's own (under /usr).
 */
export async function jvmFiles(javaBinary: string): Promise<ExtraFile[]> {
  const link = path.join(path.dirname(path.dirname(javaBinary)), "conf", "security", "java.security");
  const target = await fs.readlink(link).catch(() => undefined);
  if (!target || !path.isAbsolute(target) || target.startsWith("/usr/")) return [];
  return [{ path: target, content: Buffer.from(MINIMAL_SECURITY) }];
}
