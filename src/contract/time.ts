/** A day in milliseconds: deadlines, the refund grace and day counts all measure with this one. */
export const DAY_MS = 24 * 3600 * 1000;
