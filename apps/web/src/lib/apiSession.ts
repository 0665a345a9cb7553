/** What the API client needs from whoever owns the token. */
export interface ApiHooks {
  getToken: () => string | null;
  /** Called when the server rejects our token; the auth store clears itself. */
  onTokenRejected: () => void;
}

// Apart from api.ts so the auth store can register at start-up without loading the client and
// the protocol's schemas with it; the auth store registers itself here, so neither module
// imports the store (no cycle).
let hooks: ApiHooks = { getToken: () => null, onTokenRejected: () => {} };

/** Connects the API client to whoever owns the token. */
export function configureApi(next: ApiHooks): void {
  hooks = next;
}

/** The hooks registered last (defaults: no token, nothing to clear). */
export function apiHooks(): ApiHooks {
  return hooks;
}
