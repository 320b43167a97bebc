/**
 * The part of `npm run check` Biome cannot express (docs/decisions/019-feature-layers.md):
 *
 * 1. No import cycle between server features (the folders of src/server/features). The graph
 *    follows relative and `#server/...` imports, type-only ones included.
 * 2. Services and routes write no SQL: a feature's service.ts and routes.ts import neither
 *    drizzle-orm nor the schema; queries live in its repo.ts or repo/.
 * 3. A feature that has a service.ts reaches its repo only through it: its routes.ts imports no
 *    repo.
 * 4. The stand-alone chain scripts (CHAIN_ONLY_SCRIPTS: run against any RPC with no DarePool
 *    server or database) reach, through every import they follow, only src/server/chain and
 *    src/contract of this repository (and packages).
 *
 * Biome's noRestrictedImports (biome.json) already refuses a feature importing another feature's
 * repo and the contract importing server or web code. Exits 1 listing every problem.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER = path.join(ROOT, 'src/server');
const FEATURES = path.join(SERVER, 'features');

const relative = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    // Unit tests may import whatever they test; they are not part of a feature's code.
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

/** Every module specifier a file imports or re-exports, static or dynamic. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.map((imported) => imported.fileName);
}

/** The file path a specifier points at (without extension), or null for a package. */
function resolve(from: string, specifier: string): string | null {
  if (specifier.startsWith('.')) return path.resolve(path.dirname(from), specifier);
  if (specifier.startsWith('#server/')) return path.join(SERVER, specifier.slice('#server/'.length));
  return null;
}

/** The feature a path belongs to, or null outside src/server/features. */
function featureOf(target: string): string | null {
  const inFeatures = path.relative(FEATURES, target);
  if (inFeatures.startsWith('..') || path.isAbsolute(inFeatures)) return null;
  return inFeatures.split(path.sep)[0] ?? null;
}

interface Edge {
  file: string;
  specifier: string;
}

const problems: string[] = [];
/** feature -> imported feature -> the imports that make the edge */
const graph = new Map<string, Map<string, Edge[]>>();

for (const file of sourceFiles(FEATURES)) {
  const from = featureOf(file)!;
  const name = path.basename(file).replace(/\.tsx?$/, '');
  const featureDir = path.join(FEATURES, from);
  for (const specifier of importsOf(file)) {
    const target = resolve(file, specifier);

    if (name === 'service' || name === 'routes') {
      const isSchema = target !== null && path.relative(SERVER, target) === path.join('db', 'schema');
      if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/') || isSchema)
        problems.push(
          `${relative(file)} imports ${specifier}: services and routes write no SQL, the feature's repo does.`,
        );
    }

    if (name === 'routes' && target !== null && path.dirname(file) === featureDir) {
      const inFeature = path.relative(featureDir, target).split(path.sep)[0];
      if ((inFeature === 'repo' || inFeature === 'repo.ts') && hasService(featureDir))
        problems.push(
          `${relative(file)} imports ${specifier}: ${from} has a service, so its routes read through it.`,
        );
    }

    if (target === null) continue;
    const to = featureOf(target);
    if (to === null || to === from) continue;
    const edges = graph.get(from) ?? new Map<string, Edge[]>();
    graph.set(from, edges);
    edges.set(to, [...(edges.get(to) ?? []), { file: relative(file), specifier }]);
  }
}

function hasService(featureDir: string): boolean {
  try {
    return statSync(path.join(featureDir, 'service.ts')).isFile();
  } catch {
    return false;
  }
}

/** Strongly connected components with more than one feature: each holds at least one cycle. */
function cyclicComponents(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

/** The shortest way from `start` back to itself inside one component. */
function shortestCycle(start: string, component: Set<string>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of [...(graph.get(node)?.keys() ?? [])].sort()) {
      if (!component.has(to)) continue;
      if (to === start) {
        const route = [node];
        while (route[0] !== start) route.unshift(previous.get(route[0]!)!);
        return [...route, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start];
}

for (const component of cyclicComponents()) {
  const cycle = shortestCycle(component[0]!, new Set(component));
  const evidence = cycle.slice(1).flatMap((to, i) =>
    graph
      .get(cycle[i]!)!
      .get(to)!
      .map((edge) => `    ${edge.file} imports ${edge.specifier}`),
  );
  problems.push(
    [
      `Server features import each other in a cycle: ${cycle.join(' -> ')}` +
        (component.length > cycle.length - 1 ? ` (all of ${component.join(', ')} are tangled)` : ''),
      ...evidence,
      '  Move the shared piece to the feature that owns it or to a small shared module, or let the',
      '  lower feature declare the interface it needs.',
    ].join('\n'),
  );
}

/**
 * Scripts an operator runs with nothing but an RPC URL (docs/decisions/041-guardian-script.md):
 * importing the server's config, database or features would tie them to a server's setup.
 */
const CHAIN_ONLY_SCRIPTS = ['scripts/guardian.ts', 'scripts/refund-dare.ts'];
const CHAIN_ONLY_ALLOWED = [path.join(SERVER, 'chain'), path.join(ROOT, 'src/contract')];

/** The source file a resolved specifier names: `x.ts`, `x.tsx`, `x/index.ts`, or as written. */
function sourceFile(target: string): string | null {
  for (const candidate of [`${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts'), target]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {}
  }
  return null;
}

function resolveAny(from: string, specifier: string): string | null {
  if (specifier.startsWith('#contract/')) return path.join(ROOT, 'src/contract', specifier.slice(10));
  if (specifier.startsWith('#web/')) return path.join(ROOT, 'src/web', specifier.slice(5));
  return resolve(from, specifier);
}

for (const script of CHAIN_ONLY_SCRIPTS) {
  const seen = new Set<string>();
  const queue: { file: string; via: string }[] = [{ file: path.join(ROOT, script), via: script }];
  while (queue.length > 0) {
    const { file, via } = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of importsOf(file)) {
      const target = resolveAny(file, specifier);
      if (target === null) continue;
      const reached = sourceFile(target);
      if (reached === null) continue;
      const inside = CHAIN_ONLY_ALLOWED.some((dir) => !path.relative(dir, reached).startsWith('..'));
      if (!inside) {
        problems.push(
          `${script} reaches ${relative(reached)} (${relative(file)} imports ${specifier}, via ${via}): it runs with no DarePool server or database, so it imports only src/server/chain and src/contract.`,
        );
        continue;
      }
      queue.push({ file: reached, via: relative(file) });
    }
  }
}

if (problems.length > 0) {
  console.error(`check-boundaries: ${problems.length} problem(s) (docs/decisions/019-feature-layers.md)\n`);
  for (const problem of problems) console.error(`${problem}\n`);
  process.exit(1);
}
const features = readdirSync(FEATURES).filter((name) => statSync(path.join(FEATURES, name)).isDirectory());
console.log(
  `check-boundaries: ${features.length} server features, no cycle, services and routes hold no SQL.`,
);
