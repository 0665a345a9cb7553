#!/usr/bin/env node
// Builds the production server: apps/server/src/main.ts and our workspace packages bundled
// into apps/server/dist/main.js (npm packages stay imports, resolved from node_modules), with
// the files the server reads beside its code: migrations, the helper processes, the launcher.
// `npm start` then runs plain JavaScript: no TypeScript loader, no esbuild at run time.
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const server = path.resolve(import.meta.dirname, "../apps/server");
const dist = path.join(server, "dist");

fs.rmSync(dist, { recursive: true, force: true });
const result = await build({
  entryPoints: [path.join(server, "src/main.ts")],
  outfile: path.join(dist, "main.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  metafile: true,
  logLevel: "warning",
  plugins: [
    {
      // Our packages ship TypeScript sources: they are bundled. Everything else stays external.
      name: "external-npm-packages",
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith("@ensemble/") ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});

const assets = [
  ["src/db/migrations", "migrations"],
  ["src/features/vcs/gitProcess.js", "gitProcess.js"],
  ["src/features/execution/spawnerProcess.js", "spawnerProcess.js"],
  ["src/features/execution/launcher.py", "launcher.py"],
  ["src/features/replay/packWorker.js", "packWorker.js"],
];
for (const [from, to] of assets) fs.cpSync(path.join(server, from), path.join(dist, to), { recursive: true });

const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
console.log(
  `server built: ${path.relative(process.cwd(), dist)}/main.js (${Math.round(bytes / 1024)} KiB with its map)`,
);
