import "./styles/fonts.css";
import "./styles/base.css";
import "./styles/chrome.css";
import "./styles/components.css";
import "./styles/pages.css";
import "./styles/landing.css";
import { parseWithoutEval } from "@ensemble/protocol";
import { pageShown } from "./lib/pageShown";

// First, before any protocol schema is built: our CSP forbids the code zod would compile.
parseWithoutEval();

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

// The build prerenders the landing page, sign-in and documentation into #root (src/prerender.tsx;
// index.html empties it on any other path). There the app's script is fetched once the page has
// loaded and painted what it shows, so the page never waits for it; #root is inert until
// hydrated, so no click is lost meanwhile.
// app.html's bare page (data-shell) is no page to hydrate: the app renders over it.
const isPrerendered = root.firstElementChild !== null && !("shell" in root.dataset);
void (isPrerendered ? pageShown() : Promise.resolve())
  .then(() => import("./startApp"))
  .then(({ startApp }) => startApp(root, isPrerendered));
