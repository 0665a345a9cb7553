declare global {
  /** zod's one configuration (`globalConfig` of zod/v4/core), kept on globalThis so every copy of zod shares it. */
  var __zod_globalConfig: { jitless?: boolean } | undefined;
}

/**
 * Makes zod parse without compiling code through `new Function`, which the app's
 * Content-Security-Policy (no 'unsafe-eval') refuses and reports as a violation. zod probes
 * for it when a schema first parses, so the browser calls this first thing. It sets zod's
 * shared configuration directly rather than through zod's `config()`, which would pull zod
 * into the few-kilobyte entry of the landing page (3 kB became 14 kB).
 */
export function parseWithoutEval(): void {
  globalThis.__zod_globalConfig ??= {};
  globalThis.__zod_globalConfig.jitless = true;
}
