import { config } from "zod/v4/core";

/**
 * Makes zod parse without compiling code through `new Function`, which the app's
 * Content-Security-Policy (no 'unsafe-eval') refuses and reports as a violation. zod decides
 * when a schema is built, so the browser calls this before any module that builds one runs.
 */
export function parseWithoutEval(): void {
  config({ jitless: true });
}
