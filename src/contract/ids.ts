import { z } from 'zod';

/** PostgreSQL's `integer`, the type of every id column: a larger number makes the query fail. */
export const RECORD_ID_MAX = 2_147_483_647;

/** An id in a path, query or form field: a positive integer that fits an id column, else 400. */
export function idParam(message = 'Invalid id') {
  return z.coerce.number({ error: message }).int(message).positive(message).max(RECORD_ID_MAX, message);
}

/** An id in a JSON body or a chat frame: a number, never coerced from text. */
export const idField = z.number().int().positive().max(RECORD_ID_MAX);

/** Whether a path segment is an id that can exist (for routes that parse by hand). */
export function isRecordId(text: string): boolean {
  return idParam().safeParse(text).success && /^\d+$/.test(text);
}
