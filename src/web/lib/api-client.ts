import { readToken } from './storage';

/** A non-success answer (spec section 8 'Generic'): keeps the status and the raw body. */
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

export async function toApiError(response: Response): Promise<ApiError> {
  const text = (await response.text()) || response.statusText;
  try {
    const json = JSON.parse(text) as { error?: unknown; message?: unknown; code?: unknown; fields?: unknown };
    const message =
      typeof json.error === 'string' ? json.error : typeof json.message === 'string' ? json.message : text;
    return new ApiError(
      message,
      response.status,
      text,
      typeof json.code === 'string' ? json.code : undefined,
      json.fields && typeof json.fields === 'object' ? (json.fields as Record<string, string>) : undefined,
    );
  } catch {
    return new ApiError(`${response.status}: ${text}`, response.status, text);
  }
}

function headers(hasBody: boolean): HeadersInit {
  const token = readToken();
  return {
    ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
  };
}

/** JSON request with the stored Bearer token; throws ApiError on a non-success status. */
export async function apiRequest<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: headers(body !== undefined),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

export const apiGet = <T>(url: string) => apiRequest<T>('GET', url);
