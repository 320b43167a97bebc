import { readToken } from './storage';

/**
 * A non-success answer (docs/product.md#reading-errors). Keeps the HTTP status and the raw body; the
 * server's `{ error, code, fields }` shape also gives the error code and per-field messages.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: string,
    readonly code?: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The message is the JSON body's `error`, else its `message`, else the raw text; a body that is
 * not JSON reads `${status}: ${text}`. An empty body is replaced by the status text first.
 */
export async function toApiError(response: Response): Promise<ApiError> {
  const text = (await response.text()) || response.statusText;
  const json = parseJson(text);
  if (json === undefined) return new ApiError(`${response.status}: ${text}`, response.status, text);
  if (typeof json !== 'object' || json === null) return new ApiError(text, response.status, text);
  const { error, message, code, fields } = json as Record<string, unknown>;
  return new ApiError(
    typeof error === 'string' ? error : typeof message === 'string' ? message : text,
    response.status,
    text,
    typeof code === 'string' ? code : undefined,
    fields && typeof fields === 'object' ? (fields as Record<string, string>) : undefined,
  );
}

const sessionEndedListeners = new Set<() => void>();

/**
 * Calls back when the server says the stored session is dead (expired, revoked, logged out
 * elsewhere): the app then shows the signed-out state instead of failing every action.
 */
export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => {
    sessionEndedListeners.delete(listener);
  };
}

/**
 * A 401 UNAUTHENTICATED to a request that carried the token still stored is the server saying
 * that session ended. Other 401s (a wrong password, a bad wallet signature) are answers about
 * the request, and a 401 for a token already replaced by a new sign-in is stale news.
 */
export function reportIfSessionEnded(error: ApiError, sentToken: string | null): void {
  if (!sentToken || error.status !== 401 || error.code !== 'UNAUTHENTICATED') return;
  if (readToken() !== sentToken) return;
  for (const listener of sessionEndedListeners) listener();
}

function headers(token: string | null, jsonBody: boolean): Record<string, string> {
  return {
    ...(jsonBody ? { 'Content-Type': 'application/json' } : {}),
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
  };
}

export interface RequestOptions {
  /** Cancels the request; TanStack Query passes one so an unmounted read stops downloading. */
  signal?: AbortSignal;
}

/**
 * docs/product.md#request-conventions: every request carries the stored session token as a Bearer header; a body is
 * sent as JSON, except FormData (uploads), which the browser sends as multipart. Resolves with
 * the parsed JSON (undefined for an empty body); rejects with ApiError on a non-success status
 * (after telling `onSessionEnded` listeners when it says the session ended).
 */
export async function apiRequest<T = unknown>(
  method: string,
  url: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const isForm = body instanceof FormData;
  const token = readToken();
  const response = await fetch(url, {
    method,
    headers: headers(token, body !== undefined && !isForm),
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    signal: options.signal,
  });
  if (!response.ok) {
    const error = await toApiError(response);
    reportIfSessionEnded(error, token);
    throw error;
  }
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export function apiGet<T>(url: string, options?: RequestOptions): Promise<T> {
  return apiRequest<T>('GET', url, undefined, options);
}
