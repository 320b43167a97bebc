import { z } from 'zod';

export const TEXT_MESSAGES = {
  nul: 'Text must not contain NUL characters (\\u0000)',
} as const;

/** Whether a string is free of U+0000, which PostgreSQL's text type cannot hold. */
export const hasNoNul = (value: string): boolean => !value.includes('\u0000');

/**
 * Every string a client sends that may reach the database. PostgreSQL refuses U+0000 in text, so
 * without this a NUL byte in a search, a username or a title failed deep inside a query (a 500),
 * sometimes after the user's SOL had moved. Refused first, with its own message, before any other
 * rule of the field runs.
 */
export const text = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(hasNoNul, { error: TEXT_MESSAGES.nul, abort: true });
