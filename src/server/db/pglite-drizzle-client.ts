import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';

type ParserMap = NonNullable<QueryOptions['parsers']>;

/**
 * The PGlite client drizzle queries through. drizzle passes the same few type parsers with every
 * query (timestamps, dates and intervals kept as text), and PGlite copies its whole table of about
 * 300 parsers to merge them in, on every query: 0.2 ms of a 0.4 ms primary-key select
 * (docs/decisions/026-embedded-write-path.md). Here they are installed on the instance once, the
 * first time a query brings them, and each query then runs with the instance's table as it is.
 * The result is the same, since every query through this client is drizzle's and brings the same
 * parsers; PGlite's own `parsers` carries them from then on, for this instance only.
 */
export function drizzleClientFor(pglite: PGlite): PGlite {
  const installed = new Set<number>();
  const parsers = (pglite as unknown as { parsers: ParserMap }).parsers;
  const install = (options: QueryOptions | undefined): QueryOptions | undefined => {
    if (!options?.parsers) return options;
    for (const [type, parse] of Object.entries(options.parsers)) {
      const oid = Number(type);
      if (installed.has(oid)) continue;
      parsers[oid] = parse;
      installed.add(oid);
    }
    const { parsers: _installed, ...rest } = options;
    return rest;
  };
  const wrapTransaction = (tx: Transaction): Transaction =>
    new Proxy(tx, {
      get(target, key, receiver) {
        if (key === 'query') {
          return (query: string, params?: unknown[], options?: QueryOptions) =>
            target.query(query, params, install(options));
        }
        return Reflect.get(target, key, receiver);
      },
    });
  return new Proxy(pglite, {
    get(target, key) {
      if (key === 'query') {
        return (query: string, params?: unknown[], options?: QueryOptions) =>
          target.query(query, params, install(options));
      }
      if (key === 'transaction') {
        return <T>(callback: (tx: Transaction) => Promise<T>) =>
          target.transaction((tx) => callback(wrapTransaction(tx)));
      }
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
