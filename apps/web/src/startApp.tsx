import { type ReactNode, StrictMode, startTransition, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { App } from "./App";
import { restoreStoredUser } from "./features/auth/store";

/** Makes the prerendered page interactive once hydrated (the build leaves #root inert). */
function Interactive({ container, children }: { container: HTMLElement; children: ReactNode }) {
  useEffect(() => container.removeAttribute("inert"), [container]);
  return children;
}

/**
 * Renders the app into `container`, or hydrates the landing page the build prerendered there.
 * A signed-in visitor's stored user is parsed first (that loads the protocol's schemas); if
 * that fails, the app starts without it and fetches the profile again.
 */
export async function startApp(container: HTMLElement, isPrerendered: boolean): Promise<void> {
  await restoreStoredUser().catch(() => {});
  const app = (
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>
  );
  if (!isPrerendered) {
    createRoot(container).render(app);
    return;
  }
  // In a transition, hydration may yield to the browser between components, so the painted
  // page keeps answering input (scrolling) while it becomes interactive.
  startTransition(() => {
    hydrateRoot(container, <Interactive container={container}>{app}</Interactive>);
  });
}
