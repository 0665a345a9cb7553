import { useCallback } from "react";
import { useNavigate } from "react-router-dom";
import { toast } from "react-toastify/unstyled";
import { useAuthStore } from "./store";

/** The user-initiated logout of the nav bar: clear, go home, confirm (spec §2). */
export function useLogout(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    useAuthStore.getState().logout();
    navigate("/");
    toast.success("Logged out successfully");
  }, [navigate]);
}
