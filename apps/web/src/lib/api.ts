import { ApiErrorSchema, AUTH_MESSAGES } from "@ensemble/protocol";
import { apiHooks } from "./apiSession";

/** Why a request failed: the server answered with an error, or it could not be reached. */
export type ApiErrorKind = "http" | "network" | "invalid_response";

/**
 * The one error type every API call throws. `serverMessage` is set only when the server
 * answered with the `{ code, message }` body, so callers can pick the spec's fallbacks.
 */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly serverMessage: string | undefined;

  constructor(kind: ApiErrorKind, status: number, message: string, serverMessage?: string) {
    super(message);
    this.name = "ApiError";
    this.kind = kind;
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

/** The part of a zod schema this wrapper needs; keeps zod itself a protocol dependency. */
export interface Parser<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

interface RequestOptions {
  method?: Method;
  body?: unknown;
  /** Send the bearer token (when there is one). Defaults to true. */
  auth?: boolean;
}

const REJECTED_TOKEN_MESSAGES: ReadonlySet<string> = new Set([
  AUTH_MESSAGES.invalidToken,
  AUTH_MESSAGES.tokenExpired,
]);

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Sends the request; answers the response when it is a 2xx, else throws the one ApiError. */
async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
  const { method = "GET", body, auth = true } = options;
  const headers: Record<string, string> = { Accept: accept };
  const token = auth ? apiHooks().getToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("network", 0, "Network error");
  }
  if (response.ok) return response;
  const parsed = ApiErrorSchema.safeParse(await readJson(response));
  const serverMessage = parsed.success ? parsed.data.message : undefined;
  if (response.status === 401 && token && serverMessage && REJECTED_TOKEN_MESSAGES.has(serverMessage)) {
    apiHooks().onTokenRejected();
  }
  throw new ApiError("http", response.status, serverMessage ?? `HTTP ${response.status}`, serverMessage);
}

/**
 * Calls the same-origin API and returns the body parsed by `schema`; throws ApiError on
 * network failure, a non-2xx status or a body that does not match the contract.
 */
export async function apiRequest<T>(
  path: string,
  schema: Parser<T>,
  options: RequestOptions = {},
): Promise<T> {
  const response = await send(path, options, "application/json");
  const parsed = schema.safeParse(await readJson(response));
  if (!parsed.success) {
    throw new ApiError("invalid_response", response.status, "Unexpected response from server");
  }
  return parsed.data;
}

/** Downloads a file of the API (GET, with the token): its bytes, and the name the server gave it. */
export async function apiDownload(path: string): Promise<{ blob: Blob; fileName: string | undefined }> {
  const response = await send(path, {}, "*/*");
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    throw new ApiError("network", response.status, "Network error");
  }
  const disposition = response.headers.get("content-disposition") ?? "";
  return { blob, fileName: /filename="([^"]+)"/.exec(disposition)?.[1] };
}

/** True when `error` is an ApiError for a request that never reached the server. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof ApiError && error.kind === "network";
}
