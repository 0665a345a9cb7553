import { AUTH_MESSAGES, type AuthResponse, type User } from "@ensemble/protocol";
import { ApiError } from "../../lib/api";
import { getCurrentUser, postGithubExchange, postLogin, postRegister } from "./authApi";

/** One auth request's answer, or the spec's message for its failure. */
export type RequestResult<T> =
  | { ok: true; data: T }
  | { ok: false; message: string; isTokenRejected: boolean };

const failed = (message: string, isTokenRejected = false) => ({
  ok: false as const,
  message,
  isTokenRejected,
});

/** Spec §8 register messages, most specific first. */
function registerFailureMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return "An unexpected error occurred. Please try again.";
  if (error.kind === "network") return "Network error. Please check your connection and try again.";
  if (error.serverMessage) return error.serverMessage;
  if (error.kind === "http") return `Registration failed: ${error.status}`;
  return "An unexpected error occurred. Please try again.";
}

/** POST /api/auth/login; fails with the server's message or "Something went wrong". */
export async function requestLogin(email: string, password: string): Promise<RequestResult<AuthResponse>> {
  try {
    return { ok: true, data: await postLogin({ email, password }) };
  } catch (error) {
    return failed((error instanceof ApiError && error.serverMessage) || "Something went wrong");
  }
}

/** POST /api/auth/github/exchange; fails with the server's message or "Authentication failed". */
export async function requestGithubExchange(code: string): Promise<RequestResult<AuthResponse>> {
  try {
    return { ok: true, data: await postGithubExchange(code) };
  } catch (error) {
    return failed((error instanceof ApiError && error.serverMessage) || "Authentication failed");
  }
}

/** POST /api/auth/register; fails with the spec's register messages. */
export async function requestRegister(
  name: string,
  email: string,
  password: string,
): Promise<RequestResult<null>> {
  try {
    await postRegister({ name: name.trim(), email: email.trim(), password });
    return { ok: true, data: null };
  } catch (error) {
    return failed(registerFailureMessage(error));
  }
}

/** GET /api/getuser; says whether the server rejected the token itself (then it must go). */
export async function requestProfile(): Promise<RequestResult<User>> {
  try {
    return { ok: true, data: await getCurrentUser() };
  } catch (error) {
    const serverMessage = error instanceof ApiError ? error.serverMessage : undefined;
    const isTokenRejected =
      serverMessage === AUTH_MESSAGES.invalidToken || serverMessage === AUTH_MESSAGES.tokenExpired;
    return failed(serverMessage || "Failed to get user profile", isTokenRejected);
  }
}
