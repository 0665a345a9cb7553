import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const apiTarget = process.env.VITE_API_TARGET ?? "http://localhost:3000";

// y-monaco imports `monaco-editor/esm/vs/editor/editor.api.js`, a path that monaco-editor
// 0.57's export map rewrites to one that does not exist. Point it at the real file so
// y-monaco and our code share one Monaco instance.
const monacoApi = fileURLToPath(import.meta.resolve("monaco-editor/editor/editor.api"));

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [{ find: /^monaco-editor\/esm\/vs\/editor\/editor\.api(\.js)?$/, replacement: monacoApi }],
  },
  build: { outDir: "dist", sourcemap: true },
  server: {
    proxy: {
      "/api": apiTarget,
      "/socket.io": { target: apiTarget, ws: true },
    },
  },
});
