import { useCallback } from "react";
import { toast } from "react-toastify/unstyled";
import { ApiError } from "../../lib/api";
import { postLogoutAll } from "./authApi";
import { useLogout } from "./useLogout";

/**
 * The account page's "Sign out everywhere": the server ends every token of the user (other
 * browsers are signed out at their next request), then this browser signs out as the nav bar's
 * logout does. When the server could not do it, this browser stays signed in and says so.
 */
export function useLogoutEverywhere(): () => Promise<void> {
  const logout = useLogout();
  return useCallback(async () => {
    try {
      await postLogoutAll();
    } catch (error) {
      toast.error((error instanceof ApiError && error.serverMessage) || "Could not sign out everywhere");
      return;
    }
    logout();
  }, [logout]);
}
