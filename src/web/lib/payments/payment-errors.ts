import { ApiError } from '#web/lib/api-client';

const FALLBACK = 'Something went wrong. Please try again.';

/**
 * The text of a failed payment step for its toast: the server's reason (ApiError carries the
 * `error` field), or the wallet's own words ('User rejected the request.'). Wallets do not all
 * throw Error instances, so any object with a string `message` counts.
 */
export function describePaymentError(error: unknown): string {
  if (error instanceof ApiError) return error.message || FALLBACK;
  if (error instanceof Error) return error.message || FALLBACK;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { message } = error as { message: unknown };
    if (typeof message === 'string' && message) return message;
  }
  if (typeof error === 'string' && error) return error;
  return FALLBACK;
}

/** A failure the app detected itself, whose message is already the text the user should read. */
export class PaymentError extends Error {
  override name = 'PaymentError';
}
