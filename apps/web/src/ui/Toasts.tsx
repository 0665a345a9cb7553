import { lazy, Suspense } from "react";
import { useIsHydrated } from "./useIsHydrated";

// Toasts raised before the container mounts are queued by react-toastify, so it need not be
// in the entry; nor in the prerendered page, where hydration would report it as a server error.
const ToastContainer = lazy(() => import("./ToastContainer"));

/** The toast container, loaded once the app runs in the browser. */
export function Toasts() {
  const isHydrated = useIsHydrated();
  return isHydrated ? (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  ) : null;
}
