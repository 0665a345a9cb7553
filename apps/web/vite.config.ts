import zlib from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { compression, defineAlgorithm } from "vite-plugin-compression2";
import { monacoTypeScriptMode } from "./monacoTypeScriptPlugin";
import { prerenderPages } from "./prerenderPlugin";

const apiTarget = process.env.VITE_API_TARGET ?? "http://localhost:3000";

export default defineConfig({
  plugins: [
    react(),
    prerenderPages(import.meta.dirname),
    monacoTypeScriptMode(),
    // Brotli and gzip copies of the hashed assets beside them, which the server sends to a
    // browser that accepts them (the language workers and wasm shrink to a quarter or less).
    compression({
      include: /\.(html|js|css|wasm|json|svg|ttf)$/,
      threshold: 1024,
      // Brotli's quality 9, not 11: pyright's worker takes 2.5 s of CPU instead of 30, for 10 % more bytes.
      algorithms: [
        defineAlgorithm("brotliCompress", { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }),
        "gzip",
      ],
      skipIfLargerOrEqual: true,
    }),
  ],
  // The dev server pre-bundles monaco-editor: the same replacement there.
  optimizeDeps: { rolldownOptions: { plugins: [monacoTypeScriptMode()] } },
  // Source maps only when asked for (ENSEMBLE_SOURCEMAP=true): production ships none.
  build: {
    outDir: "dist",
    sourcemap: process.env.ENSEMBLE_SOURCEMAP === "true",
    rolldownOptions: {
      treeshake: {
        // The protocol package only declares constants and zod schemas, so a page that uses a
        // constant of it (the storage keys) need not carry every schema and zod with it.
        moduleSideEffects: (id) => (id.includes("/packages/protocol/src/") ? false : undefined),
      },
      output: {
        codeSplitting: {
          // React and the router in one chunk, not in the handful of slivers that every lazy
          // page would otherwise share: fewer requests before the first page is interactive.
          groups: [
            {
              name: "framework",
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|zustand)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": apiTarget,
      "/socket.io": { target: apiTarget, ws: true },
      "/yjs": { target: apiTarget, ws: true },
    },
  },
});
