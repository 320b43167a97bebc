import type { PublicUser } from '#contract/users';

/** docs/product.md#browser-storage: the user as JSON under 'user', the session token under 'token'. */
const USER_KEY = 'user';
const TOKEN_KEY = 'token';

export function readToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function readUser(): PublicUser | null {
  const text = localStorage.getItem(USER_KEY);
  if (!text) return null;
  try {
    const user = JSON.parse(text) as PublicUser | null;
    if (user && typeof user === 'object' && typeof user.username === 'string') return user;
  } catch {
    // Unreadable: treated as logged out below rather than crashing the app at start.
  }
  localStorage.removeItem(USER_KEY);
  return null;
}

/** Saves the user, and the token when a sign-in issued one (a refresh keeps the current token). */
export function writeSession(user: PublicUser, token?: string): void {
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  if (token) localStorage.setItem(TOKEN_KEY, token);
}

export function clearSession(): void {
  localStorage.removeItem(USER_KEY);
  localStorage.removeItem(TOKEN_KEY);
}

/**
 * Calls back when another tab signs in or out: the 'storage' event fires only in the other tabs
 * of this origin, so a logout in one tab does not leave a stale user showing in the next.
 */
export function onSessionChangedElsewhere(listener: () => void): () => void {
  const handle = (event: StorageEvent) => {
    if (event.key === null || event.key === USER_KEY || event.key === TOKEN_KEY) listener();
  };
  window.addEventListener('storage', handle);
  return () => window.removeEventListener('storage', handle);
}
