import "./styles/fonts.css";
import "./styles/base.css";
import "./styles/chrome.css";
import "./styles/components.css";
import "./styles/pages.css";
import "./styles/landing.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { App } from "./App";
import { restoreStoredUser } from "./features/auth/store";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

function render(container: HTMLElement) {
  createRoot(container).render(
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>,
  );
}

// A signed-in visitor's stored user is parsed first (that loads the protocol's schemas); a
// signed-out one renders at once. Render even if that fails: the profile is fetched again.
void restoreStoredUser().then(
  () => render(root),
  () => render(root),
);
