import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticWeb } from './static-web';

const INDEX = '<!doctype html><div id="root"></div>';
const ASSET = 'console.log("app");'.repeat(20);
let root: string;
let app: FastifyInstance;

beforeAll(async () => {
  // A built web app's shape: index.html, hashed assets (with the build's .br beside them), public files.
  const base = mkdtempSync(path.join(os.tmpdir(), 'darepool-static-web-'));
  root = path.join(base, 'web');
  mkdirSync(path.join(root, 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'index.html'), INDEX);
  writeFileSync(path.join(root, 'assets', 'app-abc123.js'), ASSET);
  writeFileSync(path.join(root, 'assets', 'app-abc123.js.br'), brotliCompressSync(ASSET));
  writeFileSync(path.join(root, 'robots.txt'), 'User-agent: *\n');
  // Beside the root, never served.
  writeFileSync(path.join(base, 'secret.txt'), 'not for the web');
  app = Fastify();
  await app.register(staticWeb, { root });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  rmSync(path.dirname(root), { recursive: true, force: true });
});

describe('the web build served by @fastify/static', () => {
  it('caches hashed assets for a year and revalidates the rest', async () => {
    const asset = await app.inject('/assets/app-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe(ASSET);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const robots = await app.inject('/robots.txt');
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['cache-control']).toBe('no-cache');
  });

  it("sends the build's brotli file to a browser that takes it", async () => {
    const res = await app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.rawPayload.equals(brotliCompressSync(ASSET))).toBe(true);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers other paths with the app, a missing asset with a 404, and nothing outside the root', async () => {
    const page = await app.inject('/dare/12');
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(INDEX);
    expect(page.headers['cache-control']).toBe('no-cache');

    expect((await app.inject('/assets/old-chunk.js')).statusCode).toBe(404);
    for (const url of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
    ]) {
      const res = await app.inject(url);
      expect(res.body, url).not.toContain('not for the web');
    }
  });
});
