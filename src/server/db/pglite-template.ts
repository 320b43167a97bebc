import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

/**
 * A new PGlite data folder starts as a copy of an empty cluster made once per installed PGlite
 * (`npm install` makes it: scripts/pglite-template.ts) instead of running initdb, which costs
 * several seconds of a first start (docs/decisions/024-start-speed.md). It lives in
 * node_modules/.cache, so it goes with the packages it was made by. Two forms: a tarball of the
 * empty cluster, for databases in memory (the tests), and a folder with the migrations of the
 * checkout applied, copied file by file into a new data folder (~0.1 s; PGlite unpacking the
 * tarball through its WebAssembly file system took ~1.4 s, the migrations ~1 s more). The folder is
 * named by the migrations it holds: after a pull that adds one, a first start falls back to the
 * tarball and migrates, until the next `npm install` makes the folder again.
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
const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** The migrations as committed: their names and contents. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  const files = readdirSync(MIGRATIONS_FOLDER, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) hash.update(path.relative(MIGRATIONS_FOLDER, file)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 12);
}

export function clusterTemplatePath(): string {
  const { version, cacheDir } = pglitePackage();
  return path.join(cacheDir, `${PREFIX}${version}.tar.gz`);
}

/** Whether both forms are there, the folder with the migrations of this checkout. */
export function hasClusterTemplate(): boolean {
  return existsSync(clusterTemplatePath()) && existsSync(path.join(clusterTemplateDir(), 'PG_VERSION'));
}

/** The migrated cluster as a folder, next to the tarball. */
function clusterTemplateDir(): string {
  return clusterTemplatePath().replace(/\.tar\.gz$/, `-migrated-${migrationsHash()}`);
}

/**
 * Makes `dataDir` a copy of the migrated cluster, if `npm install` made one for these migrations;
 * false otherwise (the tarball, or initdb, then).
 */
export function copyClusterTemplate(dataDir: string): boolean {
  const template = clusterTemplateDir();
  if (!existsSync(path.join(template, 'PG_VERSION'))) return false;
  // Copied beside the target and renamed: a start cut off halfway leaves no half cluster behind.
  const partial = `${dataDir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(template, partial, { recursive: true });
  renameSync(partial, dataDir);
  return true;
}

/** The empty cluster for this PGlite, if `npm install` made one. */
export function readClusterTemplate(): Blob | undefined {
  const file = clusterTemplatePath();
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}

/** Runs initdb once and keeps both forms of the cluster; templates of other versions go. */
export async function writeClusterTemplate(): Promise<string> {
  const file = clusterTemplatePath();
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    if (name.startsWith(PREFIX)) rmSync(path.join(dir, name), { recursive: true, force: true });
  }
  const templateDir = clusterTemplateDir();
  const partialDir = `${templateDir}.${process.pid}.partial`;
  const pglite = new PGlite({ dataDir: partialDir });
  await pglite.waitReady;
  const dump = await pglite.dumpDataDir('gzip');
  await migrate(drizzle(pglite), { migrationsFolder: MIGRATIONS_FOLDER });
  await pglite.close();
  renameSync(partialDir, templateDir);
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
  return file;
}
