import type { IncomingMessage } from 'node:http';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

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

const common: FastifyHelmetOptions = {
  // Not helmet's 'no-referrer': video hosts may check that a request comes from a page at all.
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  frameguard: { action: 'deny' },
  // Wallets that open a popup (not the extension ones) talk to it through window.opener.
  crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
};

/**
 * Security headers on every answer (helmet): nosniff, the CSP above, frame-ancestors 'none' and
 * X-Frame-Options DENY, a Referrer-Policy. `upgrade-insecure-requests` is left out: a plain-http
 * start (`npm start` on localhost) must keep loading its own assets.
 */
export const securityHeaders = fp(async (app: FastifyInstance) => {
  // Before the docs routes exist: they get their own policy through helmet's route option.
  app.addHook('onRoute', (route) => {
    if (route.url === DOCS_PREFIX || route.url.startsWith(`${DOCS_PREFIX}/`)) {
      route.helmet = {
        ...common,
        contentSecurityPolicy: { useDefaults: false, directives: docsDirectives },
      };
    }
  });
  await app.register(helmet, {
    global: true,
    ...common,
    contentSecurityPolicy: { useDefaults: false, directives: appDirectives },
  });
});
