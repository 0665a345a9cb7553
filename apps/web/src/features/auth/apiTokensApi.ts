import { ApiTokenListSchema, CreatedApiTokenSchema } from "@ensemble/protocol";
import { apiRequest, type Parser } from "../../lib/api";

const TOKENS = "/api/users/me/tokens";

/** A 204's empty body. */
const NoContent: Parser<undefined> = {
  safeParse: (data) => (data === undefined ? { success: true, data: undefined } : { success: false }),
};

/** GET /api/users/me/tokens: the caller's API tokens, newest first, without their secrets. */
export function getApiTokens() {
  return apiRequest(TOKENS, ApiTokenListSchema);
}

/** POST /api/users/me/tokens: the new token with its secret, the one time it is shown. */
export function postApiToken(name: string) {
  return apiRequest(TOKENS, CreatedApiTokenSchema, { method: "POST", body: { name } });
}

/** DELETE /api/users/me/tokens/{id} */
export function deleteApiToken(id: string) {
  return apiRequest(`${TOKENS}/${encodeURIComponent(id)}`, NoContent, { method: "DELETE" });
}
