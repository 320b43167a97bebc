import type { PublicUser } from '../../contract/users';

/** Spec section 3: the user as JSON under 'user', the session token under 'token'. */
const USER_KEY = 'user';
const TOKEN_KEY = 'token';

export function readToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function readUser(): PublicUser | null {
  const text = localStorage.getItem(USER_KEY);
  if (!text) return null;
  try {
    return JSON.parse(text) as PublicUser;
  } catch {
    localStorage.removeItem(USER_KEY);
    return null;
  }
}

export function writeSession(user: PublicUser, token?: string): void {
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  if (token) localStorage.setItem(TOKEN_KEY, token);
}

export function clearSession(): void {
  localStorage.removeItem(USER_KEY);
  localStorage.removeItem(TOKEN_KEY);
}
