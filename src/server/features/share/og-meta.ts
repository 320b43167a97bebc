import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { Dare } from '#contract/dares';
import { isRecordId } from '#contract/ids';
import { isSolAmount, normalizeSol } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import type { Clock } from '#server/deps';
import { findDare } from '#server/features/dares/dare-view';
import { WEB_DIST_DIR } from '#server/plugins/static-web';

const SITE_NAME = 'DarePool';
const DESCRIPTION_MAX = 200;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

/** The dare's Open Graph and Twitter card tags (title, description with the pool, URL). */
export function dareMetaTags(
  dare: Pick<Dare, 'title' | 'description' | 'totalPool' | 'stakeAmount'>,
  url: string,
) {
  const pool = dare.totalPool || dare.stakeAmount;
  const poolText = `${isSolAmount(pool) ? normalizeSol(pool) : pool} SOL pool`;
  const title = `${dare.title} · ${SITE_NAME}`;
  const description = `${poolText}. ${shorten(dare.description, DESCRIPTION_MAX)}`;
  const tags: [attribute: 'property' | 'name', key: string, value: string][] = [
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', SITE_NAME],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ['property', 'og:url', url],
    ['name', 'twitter:card', 'summary'],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', description],
    ['name', 'description', description],
  ];
  return [
    `<title>${escapeHtml(title)}</title>`,
    ...tags.map(([attribute, key, value]) => `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`),
  ].join('\n    ');
}

/** The app's HTML with the page's own title and tags in place of the generic title and description. */
export function injectMeta(indexHtml: string, tags: string): string {
  const withoutGeneric = indexHtml.replace(/<meta name="description"[^>]*>\s*/i, '');
  if (/<title>[\s\S]*?<\/title>/i.test(withoutGeneric))
    return withoutGeneric.replace(/<title>[\s\S]*?<\/title>/i, () => tags);
  if (/<\/head>/i.test(withoutGeneric)) return withoutGeneric.replace(/<\/head>/i, () => `${tags}\n</head>`);
  return `${tags}\n${withoutGeneric}`;
}

/**
 * /dare/{id} for link-preview crawlers, which do not run JavaScript: the SPA's index.html with the
 * dare's Open Graph and Twitter tags in its head. Browsers get the same page and the app renders
 * as anywhere else; an unknown dare gets the plain page, whose app shows 'Dare not found'.
 */
export const ogMetaRoutes: FastifyPluginAsync<{ db: DbOrTx; clock: Clock; webRoot?: string }> = async (
  app,
  { db, clock, webRoot },
) => {
  const indexPath = path.join(webRoot ?? WEB_DIST_DIR, 'index.html');
  // Read once, as the static plugin does: every dare page is built from it.
  const indexHtml = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : null;

  app.get<{ Params: { id: string } }>('/dare/:id', { schema: { hide: true } }, async (request, reply) => {
    if (!indexHtml)
      return reply.status(503).type('text/plain').send('The web app is not built. Run: npm run build:web');
    const raw = request.params.id;
    // No dare can have this id: the app still renders its 'Dare not found', with a 404 status.
    if (!isRecordId(raw)) {
      return reply
        .status(404)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(indexHtml);
    }
    const dare = await findDare(db, Number(raw), clock());
    const url = `${request.protocol}://${request.host}/dare/${encodeURIComponent(raw)}`;
    const html = dare ? injectMeta(indexHtml, dareMetaTags(dare, url)) : indexHtml;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  });
};
