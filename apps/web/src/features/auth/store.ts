import { AUTH_MESSAGES, type User } from "@ensemble/protocol";
import { create } from "zustand";
import { ApiError, configureApi } from "../../lib/api";
import { clearAuthStorage, readStoredToken, readStoredUser, storeToken, storeUser } from "../../lib/storage";
import { getCurrentUser, postLogin, postRegister } from "./authApi";

/** Outcome of an auth action; components turn it into toasts and inline messages. */
export type AuthResult = { ok: true; user: User | null } | { ok: false; message: string };

interface AuthState {
  user: User | null;
  token: string | null;
  isAuthenticated: boolean;
  loading: boolean;
  error: string | null;
  login: (email: string, password: string) => Promise<AuthResult>;
  register: (name: string, email: string, password: string) => Promise<AuthResult>;
  logout: () => void;
  fetchProfile: () => Promise<AuthResult>;
  /** Stores a token obtained elsewhere (the OAuth callback); the profile is fetched next. */
  setToken: (token: string) => void;
  clearError: () => void;
  setUser: (user: User) => void;
}

const signedOut = { user: null, token: null, isAuthenticated: false, loading: false, error: null };

/** Spec §8 register messages, most specific first. */
function registerFailureMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return "An unexpected error occurred. Please try again.";
  if (error.kind === "network") return "Network error. Please check your connection and try again.";
  if (error.serverMessage) return error.serverMessage;
  if (error.kind === "http") return `Registration failed: ${error.status}`;
  return "An unexpected error occurred. Please try again.";
}

function isRejectedToken(message: string | undefined): boolean {
  return message === AUTH_MESSAGES.invalidToken || message === AUTH_MESSAGES.tokenExpired;
}

const initialToken = readStoredToken();
const initialUser = initialToken ? readStoredUser() : null;

/** The signed-in session: state mirrored in localStorage under the spec's keys. */
export const useAuthStore = create<AuthState>()((set, get) => ({
  user: initialUser,
  token: initialToken,
  isAuthenticated: Boolean(initialToken && initialUser),
  loading: false,
  error: null,

  async login(email, password) {
    set({ loading: true, error: null });
    try {
      const { token, user } = await postLogin({ email, password });
      storeToken(token);
      storeUser(user);
      set({ user, token, isAuthenticated: true, loading: false, error: null });
      return { ok: true, user };
    } catch (error) {
      const message = (error instanceof ApiError && error.serverMessage) || "Something went wrong";
      set({ loading: false, error: message });
      return { ok: false, message };
    }
  },

  async register(name, email, password) {
    set({ loading: true, error: null });
    try {
      // The returned token is deliberately not stored (the spec stored it): a stored token
      // signs the user in on the next page load, which bounced /signin straight to the home
      // page and left a half-signed-in state. The user signs in next, as the spec's flow says.
      await postRegister({ name: name.trim(), email: email.trim(), password });
      set({ loading: false });
      return { ok: true, user: null };
    } catch (error) {
      const message = registerFailureMessage(error);
      set({ loading: false, error: message || "Registration failed" });
      return { ok: false, message };
    }
  },

  logout() {
    clearAuthStorage();
    set(signedOut);
  },

  async fetchProfile() {
    const { token } = get();
    if (!token) {
      set({ error: "No token found" });
      return { ok: false, message: "No token found" };
    }
    set({ loading: true });
    try {
      const user = await getCurrentUser();
      // A logout while the request was in flight wins over its late answer.
      if (get().token !== token) return { ok: false, message: "Signed out" };
      storeUser(user);
      set({ user, isAuthenticated: true, loading: false, error: null });
      return { ok: true, user };
    } catch (error) {
      const serverMessage = error instanceof ApiError ? error.serverMessage : undefined;
      const message = serverMessage || "Failed to get user profile";
      if (isRejectedToken(serverMessage)) get().logout();
      else set({ loading: false, error: message });
      return { ok: false, message };
    }
  },

  setToken(token) {
    storeToken(token);
    set({ token, user: null, isAuthenticated: false, error: null });
  },

  clearError() {
    set({ error: null });
  },

  setUser(user) {
    storeUser(user);
    set({ user });
  },
}));

configureApi({
  getToken: () => useAuthStore.getState().token,
  onTokenRejected: () => useAuthStore.getState().logout(),
});
