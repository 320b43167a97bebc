import { beforeAll, describe, expect, it } from 'vitest';
import { dareMetaTags, injectMeta } from '#server/features/share/og-meta';
import { TEST_INDEX_HTML } from './helpers/app';
import { dareBody, payStake } from './helpers/money';
import { setupApiSuite } from './helpers/suite';
import { bearer } from './helpers/wallet';

const {
  ctx,
  actors: { author },
} = setupApiSuite({ actors: { author: { username: 'og_author', sol: '2' } } });
let dareId: number;

beforeAll(async () => {
  const { wallet, token } = author;
  const paid = await payStake(ctx.app, token, wallet, '0.25');
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/dares',
    headers: bearer(token),
    payload: dareBody(wallet, paid, '0.25', {
      title: 'Lemon & "salt" <challenge>',
      description: 'A whole lemon, peel included, on camera.',
    }),
  });
  expect(res.statusCode).toBe(201);
  dareId = res.json().id;
});

/** The content of a meta tag, HTML entities decoded. */
function meta(html: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)" />`).exec(html);
  return match?.[1]
    ?.replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}

describe('Open Graph meta on dare pages', () => {
  it('serves /dare/{id} with the dare title, description, pool and URL, escaped', async () => {
    const res = await ctx.app.inject({ url: `/dare/${dareId}`, headers: { host: 'darepool.test' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.body;
    expect(html).toContain('<div id="root"></div>');
    expect(meta(html, 'og:title')).toBe('Lemon & "salt" <challenge> · DarePool');
    expect(meta(html, 'twitter:title')).toBe('Lemon & "salt" <challenge> · DarePool');
    expect(meta(html, 'og:description')).toBe('0.25 SOL pool. A whole lemon, peel included, on camera.');
    expect(meta(html, 'twitter:description')).toBe(meta(html, 'og:description'));
    expect(meta(html, 'twitter:card')).toBe('summary');
    expect(meta(html, 'og:url')).toBe(`http://darepool.test/dare/${dareId}`);
    // The raw title never reaches the HTML unescaped.
    expect(html).not.toContain('<challenge>');
    expect(html.match(/<title>/g)).toHaveLength(1);
  });

  it('shows the pool after contributions, not just the stake', async () => {
    const tags = dareMetaTags(
      { title: 'T', description: 'D', totalPool: '1.500000000', stakeAmount: '0.1' },
      'https://x.test/dare/1',
    );
    expect(meta(tags, 'og:description')).toBe('1.5 SOL pool. D');
  });

  it('answers an unknown dare with the plain app page, and an id no dare can have with it as a 404', async () => {
    const unknown = await ctx.app.inject({ url: '/dare/999999' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(TEST_INDEX_HTML);
    for (const path of ['/dare/abc', '/dare/0', '/dare/2147483648', '/dare/99999999999999999999']) {
      const res = await ctx.app.inject({ url: path });
      expect(res.statusCode, path).toBe(404);
      expect(res.body).toBe(TEST_INDEX_HTML);
    }
  });

  it('replaces the generic title and description of a real index.html', () => {
    const index =
      '<html><head><meta name="description" content="generic" /><title>DarePool</title></head><body></body></html>';
    const html = injectMeta(index, '<title>X</title>\n<meta name="description" content="specific" />');
    expect(html).not.toContain('generic');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('content="specific"');
  });
});
