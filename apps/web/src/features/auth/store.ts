import { type AuthResponse, STORAGE_KEYS, type User } from "@ensemble/protocol";
import { create } from "zustand";
import { configureApi } from "../../lib/apiSession";
import {
  clearAuthStorage,
  readStoredToken,
  readStoredUserId,
  storeToken,
  storeUser,
} from "../../lib/storage";
import type { RequestResult } from "./authRequests";

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
  /** Signs in with the one-time code a GitHub login ended with (/auth/callback). */
  exchangeGithubCode: (code: string) => Promise<AuthResult>;
  /** Replaces the token of the signed-in user (a password change ends the old one). */
  setToken: (token: string) => void;
  clearError: () => void;
  setUser: (user: User) => void;
}

const signedOut = { user: null, token: null, isAuthenticated: false, loading: false, error: null };

type Requests = typeof import("./authRequests");

/**
 * Runs one of the auth requests, loaded on first use: they bring the API client and the
 * protocol's schemas, which a signed-out visitor's first page never needs. A chunk that
 * cannot load fails like an unreachable server, with the request's own fallback message.
 */
async function request<T>(
  run: (requests: Requests) => Promise<RequestResult<T>>,
  fallback: string,
): Promise<RequestResult<T>> {
  try {
    return await run(await import("./authRequests"));
  } catch {
    return { ok: false, message: fallback, isTokenRejected: false };
  }
}

/** The signed-in session: state mirrored in localStorage under the spec's keys. */
export const useAuthStore = create<AuthState>()((set, get) => ({
  // The stored user joins in restoreStoredUser, before the first render.
  user: null,
  token: readStoredToken(),
  isAuthenticated: false,
  loading: false,
  error: null,

  async login(email, password) {
    set({ loading: true, error: null });
    return signIn(await request((r) => r.requestLogin(email, password), "Something went wrong"));
  },

  async exchangeGithubCode(code) {
    set({ loading: true, error: null });
    return signIn(await request((r) => r.requestGithubExchange(code), "Authentication failed"));
  },

  async register(name, email, password) {
    set({ loading: true, error: null });
    // The returned token is deliberately not stored (the spec stored it): a stored token
    // signs the user in on the next page load, which bounced /signin straight to the home
    // page and left a half-signed-in state. The user signs in next, as the spec's flow says.
    const result = await request(
      (r) => r.requestRegister(name, email, password),
      "Network error. Please check your connection and try again.",
    );
    if (!result.ok) {
      set({ loading: false, error: result.message || "Registration failed" });
      return { ok: false, message: result.message };
    }
    set({ loading: false });
    return { ok: true, user: null };
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
    const result = await request((r) => r.requestProfile(), "Failed to get user profile");
    if (!result.ok) {
      if (result.isTokenRejected) get().logout();
      else set({ loading: false, error: result.message });
      return { ok: false, message: result.message };
    }
    // A logout while the request was in flight wins over its late answer.
    if (get().token !== token) return { ok: false, message: "Signed out" };
    const user = result.data;
    storeUser(user);
    set({ user, isAuthenticated: true, loading: false, error: null });
    return { ok: true, user };
  },

  setToken(token) {
    storeToken(token);
    set({ token });
  },

  clearError() {
    set({ error: null });
  },

  setUser(user) {
    storeUser(user);
    set({ user });
  },
}));

/** Stores a login's token and user, or its failure's message. */
function signIn(result: RequestResult<AuthResponse>): AuthResult {
  if (!result.ok) {
    useAuthStore.setState({ loading: false, error: result.message });
    return { ok: false, message: result.message };
  }
  const { token, user } = result.data;
  storeToken(token);
  storeUser(user);
  useAuthStore.setState({ user, token, isAuthenticated: true, loading: false, error: null });
  return { ok: true, user };
}

configureApi({
  getToken: () => useAuthStore.getState().token,
  onTokenRejected: () => useAuthStore.getState().logout(),
});

// Another tab of this browser stored a fresh token of the same user (its password change
// ended the old one): take it, or this tab's next request would meet the ended token and
// sign the whole browser out.
globalThis.window?.addEventListener("storage", (event) => {
  const { token, user } = useAuthStore.getState();
  if (event.key !== STORAGE_KEYS.token || !event.newValue || !token || !user) return;
  if (readStoredUserId() === user.id) useAuthStore.setState({ token: event.newValue });
});

/**
 * Loads the user stored beside a stored token, as signed in; resolves at once when no token
 * is stored. main.tsx awaits it before the first render, so no page sees a half-restored state.
 */
export async function restoreStoredUser(): Promise<void> {
  if (!useAuthStore.getState().token) return;
  const { readStoredUser } = await import("../../lib/storedUser");
  const user = readStoredUser();
  useAuthStore.setState({ user, isAuthenticated: user !== null });
}
