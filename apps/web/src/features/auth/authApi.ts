import {
  AuthResponseSchema,
  type LoginBody,
  LogoutAllResponseSchema,
  ProvidersResponseSchema,
  type RegisterBody,
  type UpdateUserBody,
  UpdateUserResponseSchema,
  UserRecordResponseSchema,
  UserSchema,
} from "@ensemble/protocol";
import { apiRequest } from "../../lib/api";

/** POST /api/auth/login; sent without a token so a stale one cannot interfere. */
export function postLogin(body: LoginBody) {
  return apiRequest("/api/auth/login", AuthResponseSchema, { method: "POST", body, auth: false });
}

/** POST /api/auth/register */
export function postRegister(body: RegisterBody) {
  return apiRequest("/api/auth/register", AuthResponseSchema, { method: "POST", body, auth: false });
}

/** GET /api/getuser: the user the stored token belongs to. */
export function getCurrentUser() {
  return apiRequest("/api/getuser", UserSchema);
}

/** GET /api/auth/user/{id} */
export function getUserRecord(id: string) {
  return apiRequest(`/api/auth/user/${encodeURIComponent(id)}`, UserRecordResponseSchema);
}

/** PUT /api/auth/user/{id} with only the changed fields; a password change answers a fresh token. */
export function putUserRecord(id: string, body: UpdateUserBody) {
  return apiRequest(`/api/auth/user/${encodeURIComponent(id)}`, UpdateUserResponseSchema, {
    method: "PUT",
    body,
  });
}

/** POST /api/auth/logout-all: ends every token of the caller, this one included. */
export function postLogoutAll() {
  return apiRequest("/api/auth/logout-all", LogoutAllResponseSchema, { method: "POST" });
}

/**
 * POST /api/auth/github/exchange: the GitHub login's one-time code for a token; the browser's
 * state cookie goes with it.
 */
export function postGithubExchange(code: string) {
  return apiRequest("/api/auth/github/exchange", AuthResponseSchema, {
    method: "POST",
    body: { code },
    auth: false,
  });
}

/** GET /api/auth/providers: which social logins the server offers. */
export function getProviders() {
  return apiRequest("/api/auth/providers", ProvidersResponseSchema, { auth: false });
}
