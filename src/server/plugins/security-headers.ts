import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/** Where the Swagger UI lives (plugins/openapi.ts). */
export const DOCS_PREFIX = '/api/docs';

/** A Host header we may echo into the policy: a name or address with an optional port, nothing else. */
const PLAIN_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The chat socket's origin. CSP3 browsers already let 'self' reach ws(s) on the same host; naming
 * it keeps older ones working. An odd Host header is simply left out.
 */
function chatSocketOrigins(request: IncomingMessage): string {
  const host = request.headers.host ?? '';
  return PLAIN_HOST.test(host) ? `ws://${host} wss://${host}` : "'self'";
}

/**
 * The web app's policy: scripts only from our own origin; styles also inline (Radix dialogs inject
 * a <style> element to lock scrolling); images from us and data: URIs (Wallet Standard icons, the
 * favicon); videos from us (uploads, /api/video-proxy) and any https host (proof links are https
 * only); fetch and the chat socket to our own origin; never framed.
 */
const appDirectives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  mediaSrc: ["'self'", 'https:'],
  connectSrc: ["'self'", chatSocketOrigins],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * The Swagger UI's policy: its own scripts and styles, the data: logo; it needs no media and no
 * socket. Also never framed.
 */
const docsDirectives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

const common: HelmetOptions = {
  // Not helmet's 'no-referrer': video hosts may check that a request comes from a page at all.
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  frameguard: { action: 'deny' },
  // Wallets that open a popup (not the extension ones) talk to it through window.opener.
  crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
};

type Headers = Record<string, string>;

/** Hosts whose headers are kept ready; past that many (odd Host headers), the store starts over. */
const MAX_HOSTS = 64;

/**
 * The headers one helmet policy sets, computed by helmet once per Host header (the CSP names the
 * host for the chat socket) and then reused: helmet's middleware parses and validates its whole
 * configuration on every call, which cost more than the rest of a cached read together.
 */
function policyHeaders(options: HelmetOptions): (host: string | undefined) => Headers {
  const middleware = helmet(options);
  const byHost = new Map<string, Headers>();
  return (host = '') => {
    let headers = byHost.get(host);
    if (headers) return headers;
    const collected: Headers = {};
    const request = { headers: { host } } as unknown as IncomingMessage;
    const response = {
      setHeader(name: string, value: string) {
        collected[name.toLowerCase()] = value;
      },
      removeHeader() {},
    } as unknown as ServerResponse;
    middleware(request, response, (error?: unknown) => {
      if (error) throw error;
    });
    headers = Object.freeze(collected);
    if (byHost.size >= MAX_HOSTS) byHost.clear();
    byHost.set(host, headers);
    return headers;
  };
}

/** The web app's security headers for a Host: what every answer but the docs' carries. */
export const appSecurityHeaders = policyHeaders({
  ...common,
  contentSecurityPolicy: { useDefaults: false, directives: appDirectives },
});

/**
 * Security headers on every answer (helmet): nosniff, the CSP above, frame-ancestors 'none' and
 * X-Frame-Options DENY, a Referrer-Policy. `upgrade-insecure-requests` is left out: a plain-http
 * start (`npm start` on localhost) must keep loading its own assets.
 */
export const securityHeaders = fp(async (app: FastifyInstance) => {
  const docsHeaders = policyHeaders({
    ...common,
    contentSecurityPolicy: { useDefaults: false, directives: docsDirectives },
  });
  // Every answer, the 404s and errors too, starts with the app's headers.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(appSecurityHeaders(request.headers.host));
    done();
  });
  // Before the docs routes exist: they get their own policy on top.
  app.addHook('onRoute', (route) => {
    if (route.url === DOCS_PREFIX || route.url.startsWith(`${DOCS_PREFIX}/`)) {
      const docs: onRequestHookHandler = (request, reply, done) => {
        reply.headers(docsHeaders(request.headers.host));
        done();
      };
      route.onRequest = [docs, ...(route.onRequest ? [route.onRequest].flat() : [])];
    }
  });
});
