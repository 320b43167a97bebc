/**
 * The page fixture is what turns a broken page into a failed test, so it is tested too: each
 * kind of breakage must show up in problems(), and normal answers must not.
 */
import { describe, expect, test } from 'vitest';
import { setupApp } from './fixtures/app';
import { newPage } from './fixtures/page';

const app = setupApp();

async function openBare(allow?: RegExp[]) {
  const opened = await newPage(app.browser, { baseUrl: app.baseUrl, allow });
  await opened.page.goto(app.url('/'));
  return opened;
}

describe('page fixture', () => {
  test('reports console.error and uncaught exceptions', async () => {
    const opened = await openBare();
    try {
      await opened.page.evaluate(() => {
        console.error('something broke');
        setTimeout(() => {
          throw new Error('thrown later');
        });
      });
      await expect.poll(() => opened.problems().length).toBe(2);
      expect(opened.problems()).toEqual([
        expect.stringContaining('console.error: something broke'),
        expect.stringContaining('uncaught: Error: thrown later'),
      ]);
      expect(() => opened.assertNoProblems()).toThrow(/2 problem\(s\)/);
    } finally {
      await opened.close();
    }
  });

  test('reports a request to our origin that fails, but not one the page aborted', async () => {
    const opened = await openBare();
    try {
      await opened.context.route('**/api/health', (route) => route.abort('connectionrefused'));
      await opened.page.evaluate(async () => {
        await fetch('/api/health').catch(() => {});
        const controller = new AbortController();
        const pending = fetch('/api/config', { signal: controller.signal }).catch(() => {});
        controller.abort();
        await pending;
      });
      await expect
        .poll(() => opened.problems())
        .toEqual([
          expect.stringMatching(
            /^request failed: GET http:\/\/127\.0\.0\.1:\d+\/api\/health \(net::ERR_CONNECTION_REFUSED\)$/,
          ),
        ]);
    } finally {
      await opened.close();
    }
  });

  test('counts a 5xx anywhere and a 4xx outside /api, but not an API 4xx', async () => {
    const opened = await openBare();
    try {
      await opened.context.route('**/api/boom', (route) => route.fulfill({ status: 500, body: 'boom' }));
      await opened.context.route('**/assets/missing.js', (route) => route.fulfill({ status: 404, body: '' }));
      await opened.page.evaluate(async () => {
        await fetch('/api/no-such-endpoint');
        await fetch('/api/boom');
        await fetch('/assets/missing.js');
      });
      await expect
        .poll(() => opened.problems())
        .toEqual([
          expect.stringMatching(/^HTTP 500 GET .*\/api\/boom$/),
          expect.stringMatching(/^HTTP 404 GET .*\/assets\/missing\.js$/),
        ]);
    } finally {
      await opened.close();
    }
  });

  test('reports a Content-Security-Policy violation once, with its directive', async () => {
    const opened = await openBare();
    try {
      await opened.page.evaluate(() => {
        const inline = document.createElement('script');
        inline.textContent = 'window.injected = true';
        document.body.append(inline);
        const image = document.createElement('img');
        image.src = 'https://images.example/pixel.png';
        document.body.append(image);
      });
      await expect
        .poll(() => opened.problems())
        .toEqual([
          expect.stringMatching(/^CSP violation: script-src-elem blocked inline/),
          expect.stringMatching(/^CSP violation: img-src blocked https:\/\/images\.example\/pixel\.png/),
        ]);
      expect(await opened.page.evaluate(() => 'injected' in window)).toBe(false);
    } finally {
      await opened.close();
    }
  });

  test('lets a test allow the problems it expects', async () => {
    const opened = await openBare([/^console.error: expected noise/]);
    try {
      await opened.page.evaluate(() => {
        console.error('expected noise');
        console.error('unexpected noise');
      });
      await expect.poll(() => opened.problems()).toEqual([expect.stringContaining('unexpected noise')]);
    } finally {
      await opened.close();
    }
  });
});

describe('setupApp', () => {
  test.fails('fails a test whose page broke the Content-Security-Policy', async () => {
    const opened = await app.newPage();
    await opened.page.goto(app.url('/'));
    await opened.page.evaluate(() => {
      const inline = document.createElement('script');
      inline.textContent = 'void 0';
      document.body.append(inline);
    });
    // The body itself passes; the fixture's check after the test is what fails it.
    await expect.poll(() => opened.problems().length).toBe(1);
  });

  test.fails('fails a test whose page logged a console.error, after the test body passed', async () => {
    const { page } = await app.newPage();
    await page.goto(app.url('/'));
    await page.evaluate(() => console.error('broken on purpose'));
  });
});
