import { AUTH_MESSAGES } from '#contract/auth';
import type { AppConfig } from '#server/config';
import { badRequest } from '#server/errors';

export interface SignInSite {
  domain: string;
  origin: string;
}

/**
 * The site a SIWS message is bound to. It must never come from the request alone: a phishing page
 * could send its own Host, have the victim's wallet sign for it without a warning, and post the
 * proof with the same Host. With PUBLIC_URL it is always that; without it (a local start) only the
 * loopback addresses a browser reaches this server by on its port are accepted.
 */
export function signInSiteFor(
  config: Pick<AppConfig, 'publicSite' | 'port'>,
  request: { host: string; protocol: string },
): SignInSite {
  if (config.publicSite) return config.publicSite;
  const host = request.host.toLowerCase();
  const loopback = [`localhost:${config.port}`, `127.0.0.1:${config.port}`, `[::1]:${config.port}`];
  if (!loopback.includes(host)) throw badRequest(AUTH_MESSAGES.signInHostRefused);
  return { domain: host, origin: `${request.protocol}://${host}` };
}
