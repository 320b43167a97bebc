import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const WEB_DIST_DIR = path.resolve(import.meta.dirname, '../../../dist/web');

/**
 * Serves the built SPA. Hashed assets are cached for a year; index.html is revalidated so a
 * deploy shows at once. Unknown /api paths get a JSON 404; any other path gets the app, which
 * renders its own 404 page.
 */
export const staticWeb = fp(async (app: FastifyInstance, options: { root?: string }) => {
  const root = options.root ?? WEB_DIST_DIR;
  const indexPath = path.join(root, 'index.html');
  const hasWeb = existsSync(indexPath);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      preCompressed: true,
      // Our own headers below: the plugin's default (max-age=0) would override them.
      cacheControl: false,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn(`web app not built (${indexPath} missing): run npm run build:web`);
  }
  // Read once: every unknown path answers with it, so it must not touch the disk per request.
  const indexHtml = hasWeb ? readFileSync(indexPath, 'utf8') : null;

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (url === '/api' || url.startsWith('/api/') || url === '/ws') {
      return reply
        .status(404)
        .send({ error: `No such endpoint: ${request.method} ${url}`, code: 'NOT_FOUND' });
    }
    // A missing hashed asset (an old chunk after a deploy) must be a 404, not the app's HTML,
    // or the browser fails with a module type error instead of reloading.
    if (url.startsWith('/assets/') || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send({ error: 'Not found', code: 'NOT_FOUND' });
    }
    if (!indexHtml)
      return reply.status(503).type('text/plain').send('The web app is not built. Run: npm run build:web');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  });
});
