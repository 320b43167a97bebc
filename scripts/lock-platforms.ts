/**
 * Whether `npm ci` on each supported platform installs a native binary for every package that
 * needs one, from the committed package-lock.json alone (docs/decisions/030-platforms.md).
 *
 * The native packages are found in the lock, not listed by hand: a package whose optional
 * dependencies are restricted by os/cpu (litesvm, esbuild, rolldown, tailwind's oxide,
 * lightningcss, biome, ...). For each platform, npm's own resolution decides what gets installed:
 * `npm ci --dry-run --os --cpu --libc`, offline with an empty cache, so nothing but the lock file
 * can answer. A lock missing another platform's entries fails twice: npm ci refuses it as out of
 * sync, and the binaries are not in what it would add.
 *
 * `npm run lock:check` prints the table; `npm run lock:refresh` completes the lock after a
 * dependency change, then checks it.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export interface Platform {
  /** os-cpu, as in the known gaps below */
  id: string;
  os: string;
  cpu: string;
  libc?: string;
}

export const PLATFORMS: Platform[] = [
  { id: 'darwin-arm64', os: 'darwin', cpu: 'arm64' },
  { id: 'darwin-x64', os: 'darwin', cpu: 'x64' },
  { id: 'linux-x64', os: 'linux', cpu: 'x64', libc: 'glibc' },
  { id: 'linux-arm64', os: 'linux', cpu: 'arm64', libc: 'glibc' },
];

/**
 * Platforms where a package publishes no binary, known and accepted; each says what is lost there.
 * Nothing else may miss a binary.
 */
export const KNOWN_GAPS: { name: string; platform: string; reason: string }[] = [
  {
    name: 'solana-bankrun',
    platform: 'linux-arm64',
    reason: 'solana-bankrun publishes no linux-arm64 binary; its tests skip there, saying so',
  },
];

/**
 * Platform-only helpers, not binaries a package needs: fsevents is macOS's file watcher, which
 * chokidar (vite, tsx) uses when it is there and does without elsewhere.
 */
const PLATFORM_HELPERS: Record<string, string[]> = { fsevents: ['darwin'] };

interface LockEntry {
  version?: string;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
}

export interface NativePackage {
  name: string;
  version: string;
  /** Its os/cpu-restricted optional dependencies, as name@version. */
  binaries: { name: string; version: string; entry: LockEntry }[];
}

const packageName = (lockPath: string) => lockPath.slice(lockPath.lastIndexOf('node_modules/') + 13);

/** Where npm finds `dependency` from the package at `from`: its own node_modules, then upwards. */
function resolve(
  packages: Record<string, LockEntry>,
  from: string,
  dependency: string,
): [string, LockEntry] | null {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${dependency}`;
    if (packages[candidate]) return [candidate, packages[candidate]];
    if (!dir) return null;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent < 0 ? '' : dir.slice(0, parent);
  }
}

/** Every package in the lock that needs a binary of its platform, once per name@version. */
export function nativePackages(lock: { packages: Record<string, LockEntry> }): NativePackage[] {
  const found = new Map<string, NativePackage>();
  for (const [lockPath, entry] of Object.entries(lock.packages)) {
    if (!lockPath) continue;
    const binaries: NativePackage['binaries'] = [];
    for (const dependency of Object.keys(entry.optionalDependencies ?? {})) {
      if (PLATFORM_HELPERS[dependency]) continue;
      const resolved = resolve(lock.packages, lockPath, dependency);
      // A platform binary the lock does not hold still counts: the check then reports it missing.
      const target = resolved?.[1] ?? {};
      if (resolved && !target.os && !target.cpu) continue;
      binaries.push({ name: dependency, version: target.version ?? '(not in the lock)', entry: target });
    }
    if (binaries.length === 0) continue;
    const name = packageName(lockPath);
    found.set(`${name}@${entry.version}`, { name, version: entry.version ?? '', binaries });
  }
  return [...found.values()].sort((a, b) => `${a.name}@${a.version}`.localeCompare(`${b.name}@${b.version}`));
}

/** A binary made for this platform itself (a WebAssembly fallback is not one). */
function runsNatively(entry: LockEntry, platform: Platform): boolean {
  const matches = (values: string[] | undefined, value: string | undefined) =>
    values === undefined || value === undefined || values.includes(value);
  return (
    entry.os?.includes(platform.os) === true &&
    entry.cpu?.includes(platform.cpu) === true &&
    matches(entry.libc, platform.libc)
  );
}

export interface PlatformResult {
  platform: Platform;
  /** npm ci's refusal, when it refused the lock. */
  error: string | null;
  /** Per native package, the binary npm ci would add, or null. */
  binaries: { name: string; version: string; binary: string | null; knownGap: string | null }[];
}

/** What `npm ci` would add on `platform`, as "name@version" lines, from the lock alone. */
async function npmCiDryRun(
  root: string,
  platform: Platform,
): Promise<{ added: Set<string>; error: string | null }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `darepool-lock-${platform.id}-`));
  try {
    copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
    copyFileSync(path.join(root, 'package-lock.json'), path.join(dir, 'package-lock.json'));
    const args = ['ci', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'];
    args.push(`--cache=${path.join(dir, 'cache')}`, `--os=${platform.os}`, `--cpu=${platform.cpu}`);
    if (platform.libc) args.push(`--libc=${platform.libc}`);
    try {
      const { stdout } = await promisify(execFile)('npm', args, { cwd: dir, maxBuffer: 16 << 20 });
      const added = new Set<string>();
      for (const line of stdout.split('\n')) {
        const match = /^add (\S+) (\S+)$/.exec(line.trim());
        if (match) added.add(`${match[1]}@${match[2]}`);
      }
      return { added, error: null };
    } catch (error) {
      const { stderr } = error as { stderr?: string };
      const reason = (stderr ?? String(error))
        .split('\n')
        .filter((line) => line.startsWith('npm error') && line.trim() !== 'npm error')
        .slice(0, 4)
        .join(' / ');
      return { added: new Set(), error: reason || String(error) };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function checkLockPlatforms(
  root: string,
  platforms: Platform[] = PLATFORMS,
): Promise<{
  natives: NativePackage[];
  results: PlatformResult[];
}> {
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const natives = nativePackages(lock);
  const results = await Promise.all(
    platforms.map(async (platform): Promise<PlatformResult> => {
      const { added, error } = await npmCiDryRun(root, platform);
      return {
        platform,
        error,
        binaries: natives.map(({ name, version, binaries }) => {
          const binary = binaries.find(
            (candidate) =>
              runsNatively(candidate.entry, platform) && added.has(`${candidate.name}@${candidate.version}`),
          );
          const gap = KNOWN_GAPS.find((known) => known.name === name && known.platform === platform.id);
          return {
            name,
            version,
            binary: binary ? `${binary.name}@${binary.version}` : null,
            knownGap: binary ? null : (gap?.reason ?? null),
          };
        }),
      };
    }),
  );
  return { natives, results };
}

/** Each problem as one line; none when every platform gets every binary (known gaps aside). */
export function problemsOf(results: PlatformResult[]): string[] {
  return results.flatMap(({ platform, error, binaries }) => [
    ...(error ? [`${platform.id}: npm ci refuses the lock: ${error}`] : []),
    ...binaries
      .filter((entry) => entry.binary === null && entry.knownGap === null)
      .map((entry) => `${platform.id}: no native binary for ${entry.name}@${entry.version}`),
  ]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const root = path.resolve(import.meta.dirname, '..');
  const { results } = await checkLockPlatforms(root);
  for (const { platform, binaries } of results) {
    console.log(`${platform.id}${platform.libc ? ` (${platform.libc})` : ''}`);
    for (const entry of binaries) {
      const what = entry.binary ?? (entry.knownGap ? `none (known: ${entry.knownGap})` : 'MISSING');
      console.log(`  ${`${entry.name}@${entry.version}`.padEnd(32)} ${what}`);
    }
  }
  const problems = problemsOf(results);
  for (const problem of problems) console.error(problem);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
