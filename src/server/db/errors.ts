/** The unique index a failed insert or update ran into, on PGlite and node-postgres alike. */
export function violatedConstraint(error: unknown): string | undefined {
  const found = error as {
    code?: string;
    constraint?: string;
    cause?: { code?: string; constraint?: string };
  };
  if (found.code === '23505') return found.constraint;
  if (found.cause?.code === '23505') return found.cause.constraint;
  return undefined;
}
