import { readToken } from './storage';

/**
 * A non-success answer (spec section 8 'Generic'). Keeps the HTTP status and the raw body; the
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

function headers(jsonBody: boolean): Record<string, string> {
  const token = readToken();
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
 * Spec section 7: every request carries the stored session token as a Bearer header; a body is
 * sent as JSON, except FormData (uploads), which the browser sends as multipart. Resolves with
 * the parsed JSON (undefined for an empty body); rejects with ApiError on a non-success status.
 */
export async function apiRequest<T = unknown>(
  method: string,
  url: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const isForm = body instanceof FormData;
  const response = await fetch(url, {
    method,
    headers: headers(body !== undefined && !isForm),
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    signal: options.signal,
  });
  if (!response.ok) throw await toApiError(response);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export function apiGet<T>(url: string, options?: RequestOptions): Promise<T> {
  return apiRequest<T>('GET', url, undefined, options);
}
