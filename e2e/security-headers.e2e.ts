/**
 * The app and the API docs run under their Content-Security-Policy: any violation on these pages
 * is a problem the fixture reports (e2e/fixtures/page.ts), which fails the test.
 */
import { describe, expect, it } from 'vitest';
import { setupApp } from './fixtures/app';

const app = setupApp();

describe('security headers in the browser', () => {
  it('serves the app with nosniff, its policy and no framing, and the app runs under it', async () => {
    const { page } = await app.newPage();
    const response = await page.goto(app.url('/'));
    const headers = response!.headers();
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    await page.getByRole('heading', { name: /^Major Dare of the Week/ }).waitFor();
  });

  it('shows the Swagger UI at /api/docs under its own policy', async () => {
    const { page } = await app.newPage();
    const response = await page.goto(app.url('/api/docs'));
    expect(response!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.getByRole('heading', { name: /DarePool API/ }).waitFor();
    await page.getByText('/api/health').first().waitFor();
  });
});
