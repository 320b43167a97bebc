import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { WEB_DIST_DIR } from '../../e2e/fixtures/paths';
import { BROWSER_HEADERS, measureLoad } from '../lib/http-load';
import type { Benchmark } from '../types';

export function largestJsAsset(): { name: string; bytes: number } {
  const assets = path.join(WEB_DIST_DIR, 'assets');
  const scripts = readdirSync(assets)
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ name: file, bytes: statSync(path.join(assets, file)).size }))
    .sort((a, b) => b.bytes - a.bytes);
  const [largest] = scripts;
  if (!largest) throw new Error(`no .js file in ${assets}: is the web app built?`);
  return largest;
}

/** The SPA shell and its heaviest bundle: what every first visit downloads. */
export const staticWeb: Benchmark = {
  name: 'static',
  description: 'GET / (index.html) and the largest JS asset under load',
  async run(context) {
    const asset = largestJsAsset();
    const page = await measureLoad(context, {
      name: 'GET / (index.html)',
      path: '/',
      headers: BROWSER_HEADERS,
    });
    const script = await measureLoad(context, {
      name: `GET /assets/${asset.name} (${Math.round(asset.bytes / 1024)} KB)`,
      path: `/assets/${asset.name}`,
      headers: BROWSER_HEADERS,
    });
    return [page, script];
  },
};
