import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * A new PGlite data folder starts as a copy of an empty cluster made once per installed PGlite
 * (`npm install` makes it: scripts/pglite-template.ts) instead of running initdb, which costs
 * several seconds of a first start (docs/decisions/024-start-speed.md). It lives in
 * node_modules/.cache, so it goes with the packages it was made by.
 */
function pglitePackage(): { version: string; cacheDir: string } {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const packageDir = path.resolve(path.dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const nodeModules = packageDir.slice(0, packageDir.lastIndexOf(`${path.sep}node_modules${path.sep}`));
  return { version, cacheDir: path.join(nodeModules, 'node_modules', '.cache', 'darepool') };
}

const PREFIX = 'pglite-cluster-';

export function clusterTemplatePath(): string {
  const { version, cacheDir } = pglitePackage();
  return path.join(cacheDir, `${PREFIX}${version}.tar.gz`);
}

/** The empty cluster for this PGlite, if `npm install` made one. */
export function readClusterTemplate(): Blob | undefined {
  const file = clusterTemplatePath();
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}

/** Runs initdb once (in memory) and keeps the empty cluster; templates of other versions go. */
export async function writeClusterTemplate(): Promise<string> {
  const file = clusterTemplatePath();
  const pglite = new PGlite();
  await pglite.waitReady;
  const dump = await pglite.dumpDataDir('gzip');
  await pglite.close();
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    if (name.startsWith(PREFIX)) rmSync(path.join(dir, name), { force: true });
  }
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
  return file;
}
