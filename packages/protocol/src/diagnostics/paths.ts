/** Where the sandbox puts the run's files: workspace path `src/main.c` is `/box/src/main.c`. */
export const SANDBOX_ROOT = "/box/";

/**
 * Maps a path a compiler or a trace printed to the workspace file it names, or undefined for
 * anything else (system headers, the standard library, the compiled program under /tmp).
 * The compile and the run start in /box, so a relative path is tried from there, then from the
 * entry's folder (javac's and Java traces' bare `Main.java`, `go build` run in the package),
 * then as the end of exactly one workspace path (a packaged Java class `com/x/Foo.java`).
 */
export class WorkspacePaths {
  private readonly files: ReadonlySet<string>;
  private readonly entryDir: string;

  constructor(files: readonly string[], entry?: string) {
    this.files = new Set(files);
    const slash = entry?.lastIndexOf("/") ?? -1;
    this.entryDir = entry && slash > 0 ? entry.slice(0, slash + 1) : "";
  }

  resolve(printed: string): string | undefined {
    let raw = printed.trim();
    if (raw.startsWith("file://")) raw = raw.slice("file://".length);
    if (raw.startsWith("/")) {
      if (!raw.startsWith(SANDBOX_ROOT)) return undefined;
      return this.known(raw.slice(SANDBOX_ROOT.length));
    }
    const relative = raw.replace(/^(\.\/)+/, "");
    const direct = this.known(relative) ?? this.known(this.entryDir + relative);
    if (direct) return direct;
    const matches = [...this.files].filter((file) => file.endsWith(`/${relative}`));
    return matches.length === 1 ? matches[0] : undefined;
  }

  private known(path: string): string | undefined {
    const normal = path
      .split("/")
      .filter((segment) => segment !== "" && segment !== ".")
      .join("/");
    return this.files.has(normal) ? normal : undefined;
  }
}
