/** A `LIKE`/`ILIKE` pattern matching `q` anywhere: `%`, `_` and `\` in it match themselves. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
