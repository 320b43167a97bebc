import { statSync } from 'node:fs';
import path from 'node:path';
import { addEdge, cycleProblems, type Graph } from './cycles';
import { isPublic } from './published';
import { isInside, isTest, type Layout, moduleOf, parse, shown, sourceFiles, target } from './source';

/** Packages that talk SQL: only a feature's repo imports their code. */
const SQL_PACKAGES = /^(drizzle-orm|pg|postgres|@electric-sql\/pglite)(\/|$)/;

/** A repo file: `repo.ts` or anything in a `repo/` folder, wherever it sits in the feature. */
function isRepoFile(inFeature: string): boolean {
  const parts = inFeature.split('/');
  return parts.at(-1)!.replace(/\.tsx?$/, '') === 'repo' || parts.slice(0, -1).includes('repo');
}

function hasService(featureDir: string): boolean {
  try {
    return statSync(path.join(featureDir, 'service.ts')).isFile();
  } catch {
    return false;
  }
}

/**
 * The layers of docs/decisions/019-feature-layers.md over every file of every server feature
 * (unit tests left out: they may import whatever they test):
 * - SQL only in a feature's repo files: no other file imports drizzle-orm, a database driver or the
 *   schema for its values (types are fine: they run no query), nor calls a query on a `db`/`tx`.
 * - A feature with a service.ts reaches its repo only through it: no routes.ts imports a repo file.
 * - A feature imports of another feature only its service.ts or a module it publishes (published.ts).
 * - No import cycle between features (type-only imports included).
 */
export function serverFeatureProblems(at: Layout): { problems: string[]; features: number } {
  const problems: string[] = [];
  const graph: Graph = new Map();
  const schema = path.join(at.server, 'db', 'schema');
  const features = new Set<string>();

  for (const file of sourceFiles(at.features)) {
    if (isTest(file)) continue;
    const inFeatures = path.relative(at.features, file).split(path.sep).join('/');
    const [feature, ...rest] = inFeatures.split('/');
    if (rest.length === 0) continue;
    features.add(feature!);
    const inFeature = rest.join('/');
    const featureDir = path.join(at.features, feature!);
    const repoFile = isRepoFile(inFeature);
    const { imports, queries } = parse(file);
    const where = (line: number) => `${shown(at, file)}:${line}`;

    if (!repoFile)
      for (const query of queries)
        problems.push(
          `${where(query.line)} runs a query (${query.text}): SQL lives in the feature's repo (repo.ts or repo/), not in ${inFeature}.`,
        );

    for (const { specifier, typeOnly, line } of imports) {
      const to = target(at, file, specifier);
      const module = to === null ? null : moduleOf(to);

      const isSchema = module !== null && (module === schema || isInside(schema, module));
      if (!repoFile && !typeOnly && (SQL_PACKAGES.test(specifier) || isSchema))
        problems.push(
          `${where(line)} imports ${specifier}: only a feature's repo (repo.ts or repo/) writes SQL; move the query there.`,
        );

      if (module === null || !isInside(at.features, module)) continue;
      const [toFeature, ...toRest] = path.relative(at.features, module).split(path.sep);
      const toModule = [toFeature, ...toRest].join('/');

      if (toFeature === feature) {
        if (path.basename(file) === 'routes.ts' && isRepoFile(toRest.join('/')) && hasService(featureDir))
          problems.push(
            `${where(line)} imports ${specifier}: ${feature} has a service, so its routes read through it.`,
          );
        continue;
      }

      if (!isPublic(toModule))
        problems.push(
          `${where(line)} imports ${specifier}: ${toModule} is internal to ${toFeature}. A feature imports of another only its service.ts or a module it publishes (scripts/boundaries/published.ts); call the service, publish the piece, or read the rows in your own repo.`,
        );
      addEdge(graph, feature!, toFeature!, `${shown(at, file)} imports ${specifier}`);
    }
  }

  problems.push(...cycleProblems(graph));
  return { problems, features: features.size };
}
