import { useEffect } from "react";
import { useAuthStore } from "./store";

/** On app start, loads the profile when a token is stored but no user is (spec §4). */
export function useProfileBootstrap(): void {
  useEffect(() => {
    // Read once, not subscribed: later token changes (sign-in, OAuth callback) fetch for themselves.
    const { token, user, fetchProfile } = useAuthStore.getState();
    if (token && !user) void fetchProfile();
  }, []);
}
