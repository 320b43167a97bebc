/**
 * DarePool installs and runs on macOS and Linux, x64 and arm64 (docs/decisions/030-platforms.md):
 * npm's own resolution of the committed lock, for each of those platforms, must bring a native
 * binary for every package that needs one. Proven here without a Mac (scripts/lock-platforms.ts).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkLockPlatforms,
  KNOWN_GAPS,
  nativePackages,
  PLATFORMS,
  type PlatformResult,
  problemsOf,
} from '../scripts/lock-platforms';

const ROOT = path.resolve(import.meta.dirname, '..');
const lock = () => JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));

describe('native binaries on every supported platform', () => {
  let checked: Awaited<ReturnType<typeof checkLockPlatforms>>;
  beforeAll(async () => {
    checked = await checkLockPlatforms(ROOT);
  }, 180_000);

  it('finds every package with a native binary in the lock, each esbuild among them', () => {
    const names = nativePackages(lock()).map(({ name }) => name);
    for (const expected of [
      'litesvm',
      'esbuild',
      'rolldown', // Vite 8 bundles with rolldown; rollup is not in the tree
      '@tailwindcss/oxide',
      'lightningcss',
      '@biomejs/biome',
    ]) {
      expect(names).toContain(expected);
    }
    const esbuilds = Object.entries(lock().packages as Record<string, { version: string }>)
      .filter(([lockPath]) => lockPath.endsWith('node_modules/esbuild'))
      .map(([, entry]) => `esbuild@${entry.version}`);
    expect(esbuilds.length).toBeGreaterThan(0);
    const found = nativePackages(lock()).map(({ name, version }) => `${name}@${version}`);
    for (const esbuild of esbuilds) expect(found).toContain(esbuild);
  });

  it('npm ci, from the lock alone, installs each one natively on macOS and Linux, x64 and arm64', () => {
    expect(checked.results.map(({ platform }) => platform.id)).toEqual(PLATFORMS.map(({ id }) => id));
    expect(problemsOf(checked.results)).toEqual([]);
    for (const { platform, binaries } of checked.results) {
      expect(binaries.length).toBe(checked.natives.length);
      for (const entry of binaries) {
        if (entry.binary === null) {
          // Only a documented gap may be without a binary, and only where it is documented.
          expect(KNOWN_GAPS).toContainEqual(
            expect.objectContaining({ name: entry.name, platform: platform.id }),
          );
        }
      }
    }
    const litesvm = (id: string) =>
      checked.results
        .find(({ platform }) => platform.id === id)!
        .binaries.find(({ name }) => name === 'litesvm');
    expect(litesvm('darwin-arm64')?.binary).toMatch(/^litesvm-darwin-arm64@/);
    expect(litesvm('linux-arm64')?.binary).toMatch(/^litesvm-linux-arm64-gnu@/);
  });

  describe("a lock without another platform's binary", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'darepool-lock-test-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('is refused for that platform', async () => {
      copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
      const broken = lock();
      const darwinBinaries = Object.keys(broken.packages).filter((lockPath) =>
        /node_modules\/litesvm-darwin-arm64$/.test(lockPath),
      );
      expect(darwinBinaries).toHaveLength(1);
      delete broken.packages[darwinBinaries[0]!];
      writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(broken, null, 2));
      const { results } = await checkLockPlatforms(
        dir,
        PLATFORMS.filter(({ id }) => id === 'darwin-arm64'),
      );
      expect(problemsOf(results).join('\n')).toMatch(
        /darwin-arm64: npm ci refuses the lock: .*litesvm-darwin-arm64/,
      );
    }, 120_000);
  });

  it('excuses a missing binary only where a known gap says so', () => {
    const result = (id: string): PlatformResult => ({
      platform: PLATFORMS.find((platform) => platform.id === id)!,
      error: null,
      binaries: [
        {
          name: 'solana-bankrun',
          version: '0.4.0',
          binary: null,
          knownGap:
            KNOWN_GAPS.find(({ name, platform }) => name === 'solana-bankrun' && platform === id)?.reason ??
            null,
        },
      ],
    });
    expect(problemsOf([result('linux-arm64')])).toEqual([]);
    expect(problemsOf([result('darwin-arm64')])).toEqual([
      'darwin-arm64: no native binary for solana-bankrun@0.4.0',
    ]);
  });
});
