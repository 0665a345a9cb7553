import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const apiTarget = process.env.VITE_API_TARGET ?? "http://localhost:3000";

export default defineConfig({
  plugins: [react()],
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
    },
  },
  server: {
    proxy: {
      "/api": apiTarget,
      "/socket.io": { target: apiTarget, ws: true },
    },
  },
});
