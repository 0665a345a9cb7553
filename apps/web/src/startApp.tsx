import { StrictMode, startTransition, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { App } from "./App";
import { restoreStoredUser } from "./features/auth/store";

/**
 * Makes the prerendered page interactive once hydrated (the build leaves #root inert). It sits
 * in the page's Suspense boundary, so a lazy page (sign-in, documentation) has hydrated too:
 * nothing typed into its form before then is lost.
 */
function Interactive({ container }: { container: HTMLElement }) {
  useEffect(() => container.removeAttribute("inert"), [container]);
  return null;
}

/**
 * Renders the app into `container`, or hydrates the page the build prerendered there.
 * A signed-in visitor's stored user is parsed first (that loads the protocol's schemas); if
 * that fails, the app starts without it and fetches the profile again.
 */
export async function startApp(container: HTMLElement, isPrerendered: boolean): Promise<void> {
  await restoreStoredUser().catch(() => {});
  const app = (
    <StrictMode>
      <BrowserRouter>
        <App>{isPrerendered && <Interactive container={container} />}</App>
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
    hydrateRoot(container, app);
  });
}
