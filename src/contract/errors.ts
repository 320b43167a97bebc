import { z } from 'zod';

/** Every machine code the API may answer with, and the HTTP status it travels with. */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  TRANSACTION_FAILED: 400,
  PAYMENT_NOT_VERIFIED: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_SIGN_IN: 401,
  FORBIDDEN: 403,
  ADMIN_ONLY: 403,
  REGISTRATION_DISABLED: 403,
  DARE_CREATION_DISABLED: 403,
  NOT_FOUND: 404,
  WALLET_NOT_REGISTERED: 404,
  CONFLICT: 409,
  ALREADY_EXISTS: 409,
  ALREADY_PROCESSED: 409,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  CHAIN_UNAVAILABLE: 503,
  /** A shared service the action depends on (the rate-limit counters) does not answer; Retry-After says when to try again. */
  SERVICE_UNAVAILABLE: 503,
  INSUFFICIENT_STORAGE: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const errorBodySchema = z
  .object({
    error: z.string(),
    code: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  })
  .passthrough()
  .meta({ id: 'Error' });

export type ErrorBody = z.infer<typeof errorBodySchema>;
