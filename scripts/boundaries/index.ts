import { readdirSync } from 'node:fs';
import path from 'node:path';
import { cruise, type ICruiseResult, type IFlattenedRuleSet } from 'dependency-cruiser';
import { addEdge, cycleProblems, type Graph } from './cycles';
import { importRules } from './import-rules';
import { layout } from './source';
import { sqlProblems } from './sql';

const FEATURE_FILE = /^src\/server\/features\/([^/]+)\/.+\.tsx?$/;
const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/** Server features import each other in no cycle (type-only imports included): one graph of features. */
function featureCycles(result: ICruiseResult): string[] {
  const graph: Graph = new Map();
  for (const module of result.modules) {
    const from = FEATURE_FILE.exec(module.source)?.[1];
    if (from === undefined || isTest(module.source)) continue;
    for (const dependency of module.dependencies) {
      const to = FEATURE_FILE.exec(dependency.resolved)?.[1];
      if (to !== undefined && to !== from)
        addEdge(graph, from, to, `${module.source} imports ${dependency.module}`);
    }
  }
  return cycleProblems(graph);
}

/**
 * Every boundary rule over the repository at `root` (docs/decisions/078-boundary-rules.md): the
 * import rules run by dependency-cruiser (import-rules.ts), the feature cycles read from the graph it
 * builds, and the SQL rule, which is not an import rule (sql.ts). All problems found, in that order;
 * each names its rule.
 */
export async function checkBoundaries(root: string): Promise<{ problems: string[]; summary: string }> {
  const rules = importRules(root);
  const ruleSet: IFlattenedRuleSet = { forbidden: rules };
  const { output } = await cruise(['src', 'scripts'], {
    baseDir: root,
    validate: true,
    ruleSet,
    // TypeScript's own parser: `import type` and type-only re-exports are followed too.
    tsPreCompilationDeps: true,
    // A copy of the repository (the planted-violation test) links node_modules: paths stay under it.
    preserveSymlinks: true,
    // A package is a leaf: its name is what the rules see (a .d.ts it resolves to is kept, so an
    // import of drizzle-orm from the contract still shows).
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  });
  if (typeof output === 'string') throw new Error('dependency-cruiser answered text, not a result');
  const comments = new Map(rules.map((rule) => [rule.name, rule.comment]));
  const imports = output.summary.violations.map((violation) => {
    const via = violation.via?.length ? ` (via ${violation.via.map((step) => step.name).join(' -> ')})` : '';
    return `${violation.from} -> ${violation.to}${via}: ${violation.rule.name}: ${comments.get(violation.rule.name) ?? ''}`;
  });
  const features = readdirSync(path.join(root, 'src/server/features')).length;
  return {
    problems: [...imports, ...featureCycles(output), ...sqlProblems(layout(root))],
    summary: `${output.summary.totalCruised} modules, ${rules.length} import rules (dependency-cruiser), ${features} server features in no cycle, SQL only in repos and the listed database adapter files.`,
  };
}
