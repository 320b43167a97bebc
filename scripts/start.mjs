/**
 * `npm start`: runs the server compiled to plain JavaScript (dist/server), compiling it first when
 * its sources changed since the last compile. The server loads in this process with no
 * TypeScript loader in between: tsx transpiled ~200 files and hooked every import on each start,
 * about a third of a restart (docs/decisions/024-start-speed.md). Plain JavaScript because it
 * decides whether there is anything to compile; everything else stays TypeScript.
 *
 * Stack traces name dist/server/start.js; `NODE_OPTIONS=--enable-source-maps npm start` maps them
 * to the TypeScript sources (start.js.map), at about half a second of every start.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT_DIR = path.join(ROOT, 'dist/server');
/** The server's start, and the web app's build check (small, so the build starts first). */
const ENTRIES = {
  start: path.join(ROOT, 'src/server/start.ts'),
  'web-build': path.join(ROOT, 'src/server/web-build.ts'),
};
const STAMP = path.join(OUT_DIR, 'build.json');
/** What the compiled server is made of (dependencies stay in node_modules, loaded as they are). */
const SOURCES = ['src/server', 'src/contract', 'package.json', 'tsconfig.json', 'scripts/start.mjs'];

/** Newest modification time under `entry`; tests are not part of the server. */
function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return /\.test\.tsx?$/.test(entry) ? 0 : stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** The newest modification time among the server's sources. */
function newestSource() {
  return Math.max(...SOURCES.map((source) => newestMtime(path.join(ROOT, source))));
}

/**
 * The stamp records the checkout the output was compiled in and the newest source it saw before
 * compiling (a file saved during a compile makes the next start compile again).
 */
function isServerBuildStale(sources) {
  if (!existsSync(STAMP)) return true;
  // Paths of the checkout are compiled in (below): a moved checkout compiles again.
  const stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
  return stamp.root !== ROOT || !(sources <= stamp.sources);
}

/**
 * `import.meta.url` and `import.meta.dirname` keep naming the source file, as under tsx: the
 * server finds its migrations, demo videos, the escrow program and dist/web relative to it.
 */
const sourceLocations = {
  name: 'darepool-source-locations',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, ({ path: file }) => {
      const source = readFileSync(file, 'utf8');
      if (!source.includes('import.meta')) return undefined;
      return {
        loader: 'ts',
        contents: source
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(file)))
          .replaceAll('import.meta.filename', JSON.stringify(file))
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href)),
      };
    });
  },
};

/**
 * Packages left in node_modules, loaded as they are: those that find files of their own next to
 * their code (PGlite's WebAssembly, LiteSVM's native binary, pino's worker transports, Swagger UI's
 * pages) and those only loaded on demand (S3, Redis, the web build). Everything else is bundled:
 * resolving and reading several hundred small modules was a fifth of a restart (decision 024).
 */
const EXTERNAL_PACKAGES = [
  '@electric-sql/pglite',
  'litesvm',
  'pino',
  'pino-pretty',
  'thread-stream',
  '@fastify/static',
  '@fastify/swagger-ui',
  '@aws-sdk/*',
  '@smithy/*',
  'redis',
  'ws',
  'pg-native',
  'vite',
  'esbuild',
];

/** Compiles `entries` into dist/server; the web build's check first, alone, so vite starts at once. */
async function compile(entries, { splitting }) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: entries,
    outdir: OUT_DIR,
    bundle: true,
    // Code only imported on demand (Redis, S3) stays in chunks of its own, loaded when asked for.
    splitting,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL_PACKAGES,
    // Bundled CommonJS packages call require(); ES modules have none of their own.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    sourcemap: true,
    sourcesContent: false,
    plugins: [sourceLocations],
    logLevel: 'warning',
  });
}

const compiled = (name) => pathToFileURL(path.join(OUT_DIR, `${name}.js`)).href;

/**
 * `--prepare` (npm install's last step, postinstall): compiles the server and builds the web app
 * now, so the first `npm start` of a checkout finds both ready and only checks that they are
 * (docs/decisions/082-start-prepared-at-install.md). It never fails the install: what it could not
 * do, the first start does.
 */
const preparing = process.argv.includes('--prepare');

const started = performance.now();
const sources = newestSource();
const stale = isServerBuildStale(sources);
if (stale) {
  rmSync(OUT_DIR, { recursive: true, force: true });
  await compile({ 'web-build': ENTRIES['web-build'] }, { splitting: false });
}
// The web app is rebuilt when its sources changed since the last build, in a child process, while
// this one compiles the server, opens the database and the chain and loads the demo data.
const { buildWebIfStale } = await import(compiled('web-build'));
const webBuildStartedAt = performance.now();
const webBuild = buildWebIfStale();
webBuild.catch(() => {}); // reported by startServer, which waits for it before the routes
if (stale) {
  await compile({ start: ENTRIES.start }, { splitting: true });
  writeFileSync(STAMP, JSON.stringify({ root: ROOT, sources }));
  console.log(
    `compiled the server into dist/server in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
if (preparing) {
  const built = await webBuild;
  if (built)
    console.log(
      `built the web app into dist/web in ${((performance.now() - webBuildStartedAt) / 1000).toFixed(1)} s`,
    );
} else {
  const compileMs = stale ? performance.now() - started : 0;
  const { startServer, failedToStart } = await import(compiled('start'));
  startServer({ webBuild, webBuildStartedAt, compileMs }).catch(failedToStart);
}
