import { useCallback } from "react";
import { useNavigate } from "react-router-dom";
import { useAuthStore } from "./store";

/** The user-initiated logout of the nav bar: clear, go home, confirm (spec §2). */
export function useLogout(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    useAuthStore.getState().logout();
    navigate("/");
    // Imported here, not at the top: the nav bar is on every first page, react-toastify is not needed there.
    void import("react-toastify/unstyled").then(({ toast }) => toast.success("Logged out successfully"));
  }, [navigate]);
}
