import { StrictMode } from "react";
import { prerender } from "react-dom/static";
import { StaticRouter } from "react-router-dom";
import { App, EDITOR_PATH } from "./App";

/** A page the build renders into an HTML file of its own, which the server sends for its path. */
export interface PrerenderedPage {
  path: string;
  /** The file beside index.html; the server answers `path` with it. */
  file: string;
  /** A signed-in visitor is sent on from it (/signin): with a stored token, index.html drops the markup. */
  isSignedOutOnly: boolean;
}

/** The pages drawn before their script loads: the landing page, sign-in and documentation. */
export const PRERENDERED_PAGES: readonly PrerenderedPage[] = [
  { path: "/", file: "index.html", isSignedOutOnly: false },
  { path: "/signin", file: "signin.html", isSignedOutOnly: true },
  { path: "/documentation", file: "documentation.html", isSignedOutOnly: false },
];

/**
 * The markup of the page at `path` as the browser's first render produces it, for the build to
 * put in that page's HTML file (prerenderPlugin.ts): the page paints before its script has
 * loaded, and startApp.tsx hydrates it. `prerender` waits for the lazy pages' chunks, so a
 * lazy page is in the markup, not its fallback (hydration keeps it while its chunk loads).
 * Runs at build time in Node, so nothing here may need a browser.
 */
export async function renderPage(path: string): Promise<string> {
  return await render(path, false);
}

/**
 * The bare page for every path not prerendered (app.html): the nav bar over a loading
 * spinner, as the editor's route first renders while its chunk loads, so something shows
 * before the script arrives. startApp.tsx renders the app in its place (not a hydration).
 */
export async function renderShell(): Promise<string> {
  return await render(EDITOR_PATH, true);
}

async function render(path: string, isShell: boolean): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location={path}>
        <App isShell={isShell} />
      </StaticRouter>
    </StrictMode>,
    // Every boundary inline, however large: React would otherwise move a large one behind a
    // script that swaps it in, and the page must show without scripts (our CSP allows none inline).
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const markup = await new Response(prelude).text();
  if (/<script|<template/.test(markup)) throw new Error(`The prerendered ${path} needs a script to show`);
  return markup;
}
