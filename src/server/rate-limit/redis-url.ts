/** redis://host:port/db, never the password. */
export function describeRedisUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.hostname}:${parsed.port || 6379}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}
