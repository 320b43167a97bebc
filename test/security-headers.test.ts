import { describe, expect, it } from 'vitest';
import { setupApiSuite } from './helpers/suite';

const { ctx } = setupApiSuite();

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | string[] | number | undefined): Map<string, string[]> {
  return new Map(
    String(header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('security headers', () => {
  const answers = [
    { method: 'GET' as const, url: '/' },
    { method: 'GET' as const, url: '/dare/1' },
    { method: 'GET' as const, url: '/some/page' },
    { method: 'GET' as const, url: '/api/health' },
    { method: 'GET' as const, url: '/api/dares' },
    { method: 'GET' as const, url: '/api/no-such-thing' },
    { method: 'POST' as const, url: '/api/auth/login', payload: { username: 'x', password: 'y' } },
  ];

  it('are on every answer: nosniff, the CSP, no framing, a Referrer-Policy', async () => {
    for (const request of answers) {
      const res = await ctx.app.inject({ ...request, headers: { host: 'darepool.test:5000' } });
      const label = `${request.method} ${request.url}`;
      expect(res.headers['x-content-type-options'], label).toBe('nosniff');
      expect(res.headers['referrer-policy'], label).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options'], label).toBe('DENY');
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('frame-ancestors'), label).toEqual(["'none'"]);
      expect(csp.get('script-src'), label).toEqual(["'self'"]);
      expect(csp.get('media-src'), label).toEqual(["'self'", 'https:']);
      expect(csp.get('img-src'), label).toEqual(["'self'", 'data:']);
      expect(csp.get('connect-src'), label).toEqual([
        "'self'",
        'ws://darepool.test:5000',
        'wss://darepool.test:5000',
      ]);
      expect(csp.get('object-src'), label).toEqual(["'none'"]);
      expect(csp.has('upgrade-insecure-requests'), label).toBe(false);
    }
  });

  it('never echoes an odd Host header into the policy', async () => {
    const res = await ctx.app.inject({
      url: '/',
      headers: { host: "evil.test; script-src 'unsafe-inline'" },
    });
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'", "'self'"]);
  });

  it('gives the Swagger UI its own policy, under which its page and assets are served', async () => {
    const page = await ctx.app.inject({ url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui-bundle.js');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const csp = directives(page.headers['content-security-policy']);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.has('media-src')).toBe(false);
    const bundle = await ctx.app.inject({ url: '/api/docs/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect(directives(bundle.headers['content-security-policy']).has('media-src')).toBe(false);
  });
});
