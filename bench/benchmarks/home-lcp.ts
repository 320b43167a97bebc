import { gzipSync } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';
import {
  CHROMIUM_ARGS,
  chromiumPath,
  isChromiumInstalled,
  missingChromiumMessage,
} from '../../e2e/fixtures/chromium';
import type { Benchmark } from '../types';

const LCP_BUDGET_MS = 1500;
const HOME_JS_BUDGET_BYTES = 200 * 1024;
const CPU_SLOWDOWN = 4;
const RUNS = 3;

/**
 * Evaluated as a string, not a function: tsx compiles functions with a `__name` helper that does
 * not exist in the page. LCP candidates keep coming while content renders (dares arrive from the
 * API after the shell), so the last one after a quiet second is the page's LCP.
 */
const READ_LCP = `new Promise((resolve) => {
  let last = null;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) last = { time: entry.startTime, element: entry.element ? entry.element.tagName.toLowerCase() + (entry.element.id ? '#' + entry.element.id : '') : '?' };
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  setTimeout(() => resolve(last), 1000);
})`;

interface HomeLoad {
  lcpMs: number;
  lcpElement: string;
  scripts: { url: string; bytes: number; gzipBytes: number; transferBytes: number }[];
}

async function loadHome(browser: Browser, baseUrl: string): Promise<HomeLoad> {
  // A new context per load: a cold cache, as a first visit has.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const origin = new URL(baseUrl).origin;
    const pendingScripts: Promise<HomeLoad['scripts'][number]>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script' || !response.url().startsWith(origin)) return;
      pendingScripts.push(
        Promise.all([response.body(), response.request().sizes()]).then(([body, sizes]) => ({
          url: response.url(),
          bytes: body.length,
          gzipBytes: gzipSync(body).length,
          transferBytes: sizes.responseBodySize,
        })),
      );
    });
    await page.goto(new URL('/', baseUrl).toString(), { waitUntil: 'networkidle' });
    const lcp = (await page.evaluate(READ_LCP)) as { time: number; element: string } | null;
    if (!lcp) throw new Error('Chromium reported no largest-contentful-paint for / (nothing rendered?)');
    return { lcpMs: lcp.time, lcpElement: lcp.element, scripts: await Promise.all(pendingScripts) };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The Home route as a first-time visitor on a slow phone-class CPU sees it. */
export const homeLcp: Benchmark = {
  name: 'home-lcp',
  description: `Home largest contentful paint at ${CPU_SLOWDOWN}x CPU throttling, and its initial JS`,
  async run({ baseUrl }) {
    if (!isChromiumInstalled()) throw new Error(missingChromiumMessage());
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    try {
      const loads: HomeLoad[] = [];
      for (let run = 0; run < RUNS; run += 1) loads.push(await loadHome(browser, baseUrl));
      const lcps = loads.map((load) => load.lcpMs);
      const { scripts } = loads[0]!;
      const gzipBytes = scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
      const rawBytes = scripts.reduce((sum, script) => sum + script.bytes, 0);
      const transferBytes = scripts.reduce((sum, script) => sum + script.transferBytes, 0);
      return [
        {
          kind: 'measure',
          name: `Home LCP (${CPU_SLOWDOWN}x CPU, median of ${RUNS})`,
          value: median(lcps),
          unit: 'ms',
          budget: LCP_BUDGET_MS,
          detail: `runs ${lcps.map((lcp) => Math.round(lcp)).join(' / ')} ms; element <${loads[0]!.lcpElement}>`,
        },
        {
          kind: 'measure',
          name: 'Home initial JS (gzipped)',
          value: gzipBytes,
          unit: 'bytes',
          budget: HOME_JS_BUDGET_BYTES,
          detail: `${scripts.length} script(s), ${Math.round(rawBytes / 1024)} KB uncompressed, ${Math.round(transferBytes / 1024)} KB as sent`,
        },
      ];
    } finally {
      await browser.close();
    }
  },
};
