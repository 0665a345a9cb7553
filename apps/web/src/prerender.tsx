import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router-dom";
import { App } from "./App";

/**
 * The landing page's markup as the browser's first render produces it, for the build to put
 * in index.html (prerenderPlugin.ts): the page paints before its script has loaded, and
 * startApp.tsx hydrates it. Runs at build time in Node, so nothing here may need a browser.
 */
export function renderLanding(): string {
  return renderToString(
    <StrictMode>
      <StaticRouter location="/">
        <App />
      </StaticRouter>
    </StrictMode>,
  );
}
