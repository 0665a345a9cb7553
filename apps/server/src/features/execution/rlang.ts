import fs from "node:fs/promises";
import path from "node:path";
import type { ExtraFile } from "./launch";

/**
 * Before the program's file runs, a syntax error is reported with its line: R's own run of the
 * file (`Rscript main.r`) names none (`Error: unexpected '*' in "x <- 1 +*"`), `parse` does
 * (`main.r:2:9: unexpected '*'`), and then the file runs as Rscript runs it, arguments untouched.
 */
const SITE_PROFILE = `local({
  file <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
  if (length(file) == 1L) {
    parsed <- tryCatch(parse(file, keep.source = FALSE), error = identity)
    if (inherits(parsed, "error")) {
      message("Error: ", conditionMessage(parsed))
      quit(save = "no", status = 1L)
    }
  }
})
`;

const MULTIARCH: Readonly<Record<string, string>> = { x64: "x86_64-linux-gnu", arm64: "aarch64-linux-gnu" };

/** The folder of a library's real file, when Debian reaches it through /etc/alternatives. */
async function realFolder(file: string): Promise<string | undefined> {
  const real = await fs.realpath(file).catch(() => undefined);
  return real?.startsWith("/usr/") ? path.dirname(real) : undefined;
}

/**
 * Debian's R reads `etc/ldpaths`, `etc/Renviron` and `etc/Rprofile.site` of /usr/lib/R through
 * links into /etc/R, finds BLAS and LAPACK through /etc/alternatives, and `Sys.which` (which
 * `utils` calls as it loads) runs /usr/bin/which, an /etc/alternatives link too: none of it
 * resolves in the sandbox. This writes what a run needs where the links point: the library
 * path with the BLAS and LAPACK the host chose, Debian's own Renviron (its pristine copy under
 * /usr), a site profile that names a syntax error's line, and `which` as a script calling the
 * host's choice.
 */
export async function rFiles(): Promise<ExtraFile[]> {
  const libraries = `/usr/lib/${MULTIARCH[process.arch] ?? `${process.arch}-linux-gnu`}`;
  const folders = [
    "/usr/lib/R/lib",
    libraries,
    await realFolder(`${libraries}/libblas.so.3`),
    await realFolder(`${libraries}/liblapack.so.3`),
  ].filter((f) => f !== undefined);
  const renviron = await fs.readFile("/usr/lib/R/etc/Renviron.ucf").catch(() => Buffer.from("EDITOR=vi\n"));
  const files: ExtraFile[] = [
    {
      path: "/etc/R/ldpaths",
      content: Buffer.from(
        `LD_LIBRARY_PATH="${[...new Set(folders)].join(":")}\${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"\nexport LD_LIBRARY_PATH\n`,
      ),
    },
    { path: "/etc/R/Renviron", content: renviron },
    { path: "/etc/R/Rprofile.site", content: Buffer.from(SITE_PROFILE) },
  ];
  const which = await fs.realpath("/usr/bin/which").catch(() => undefined);
  const link = await fs.readlink("/usr/bin/which").catch(() => undefined);
  if (which?.startsWith("/usr/") && link?.startsWith("/etc/")) {
    files.push({ path: link, content: Buffer.from(`#!/bin/sh\nexec ${which} "$@"\n`), mode: 0o555 });
  }
  return files;
}
