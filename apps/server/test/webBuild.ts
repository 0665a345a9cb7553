import fs from "node:fs/promises";
import path from "node:path";

/** The inline script of the fake build's index.html, as the real build has one. */
export const INLINE_SCRIPT = 'document.getElementById("root").dataset.ready = "1";';

/**
 * A minimal web build in `dir` (index.html with one inline script, one hashed asset), so the
 * server's web serving and its headers are tested without running Vite.
 */
export async function writeWebBuild(dir: string): Promise<string> {
  await fs.mkdir(path.join(dir, "assets"), { recursive: true });
  await fs.writeFile(
    path.join(dir, "index.html"),
    `<!doctype html><html><head><title>Ensemble</title></head><body><div id="root"></div>` +
      `<script>${INLINE_SCRIPT}</script><script type="module" src="/assets/app-1.js"></script></body></html>`,
  );
  await fs.writeFile(path.join(dir, "assets", "app-1.js"), 'console.log("app");\n');
  return dir;
}
