type PgError = { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };

/** The constraint a failed statement ran into with SQLSTATE `code`, on PGlite and node-postgres alike. */
function constraintOf(error: unknown, code: string): string | undefined {
  const found = error as PgError;
  if (found.code === code) return found.constraint;
  if (found.cause?.code === code) return found.cause.constraint;
  return undefined;
}

/** The unique index a failed insert or update ran into. */
export const violatedConstraint = (error: unknown) => constraintOf(error, '23505');

/** The foreign key a failed insert or update ran into (the row it names is gone). */
export const violatedForeignKey = (error: unknown) => constraintOf(error, '23503');
