import {
  AccountDeletionPreviewSchema,
  type DeleteAccountBody,
  DeleteAccountResponseSchema,
} from "@ensemble/protocol";
import { apiDownload, apiRequest } from "../../lib/api";

const userPath = (id: string) => `/api/auth/user/${encodeURIComponent(id)}`;

/** GET /api/auth/user/{id}/deletion: what deleting the account would do, for its dialog. */
export function getDeletionPreview(id: string) {
  return apiRequest(`${userPath(id)}/deletion`, AccountDeletionPreviewSchema);
}

/** DELETE /api/auth/user/{id}, confirmed with the password or a GitHub re-sign-in's code. */
export function deleteAccount(id: string, body: DeleteAccountBody) {
  return apiRequest(userPath(id), DeleteAccountResponseSchema, { method: "DELETE", body });
}

/** GET /api/auth/user/{id}/export: the account's data as a zip. */
export function downloadAccountExport(id: string) {
  return apiDownload(`${userPath(id)}/export`);
}

/** Where the account page sends a GitHub-only account to confirm its deletion. */
export const GITHUB_REAUTH_URL = "/api/auth/github?for=delete";
