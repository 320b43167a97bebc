import { ERROR_STATUS, type ErrorCode, errorBodySchema } from '#contract/errors';

/** An error the client is meant to see: its message is shown to the user as is. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) =>
  new AppError('BAD_REQUEST', message, extra);
export const unauthenticated = (message = 'Authentication required') =>
  new AppError('UNAUTHENTICATED', message);
export const forbidden = (message = 'Forbidden') => new AppError('FORBIDDEN', message);
export const notFound = (message = 'Not found') => new AppError('NOT_FOUND', message);
export const conflict = (message: string, extra?: Record<string, unknown>) =>
  new AppError('CONFLICT', message, extra);

/** A route schema's error answers: each listed status answers `{ error, code }` (the error handler's body). */
export function errorResponses<Status extends number>(
  ...statuses: Status[]
): Record<Status, typeof errorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<
    Status,
    typeof errorBodySchema
  >;
}
