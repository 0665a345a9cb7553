import { useEffect } from "react";
import { useLocation } from "react-router-dom";

/** A client-side navigation starts at the top of the new page, as a full load would. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (pathname) window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
