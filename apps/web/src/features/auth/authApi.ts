import {
  AuthResponseSchema,
  type LoginBody,
  ProvidersResponseSchema,
  type RegisterBody,
  type UpdateUserBody,
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

/** PUT /api/auth/user/{id} with only the changed fields. */
export function putUserRecord(id: string, body: UpdateUserBody) {
  return apiRequest(`/api/auth/user/${encodeURIComponent(id)}`, UserRecordResponseSchema, {
    method: "PUT",
    body,
  });
}

/** GET /api/auth/providers: which social logins the server offers. */
export function getProviders() {
  return apiRequest("/api/auth/providers", ProvidersResponseSchema, { auth: false });
}
