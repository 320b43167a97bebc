import path from 'node:path';
import { isInside, type Layout, parse, shown, sourceFiles, target } from './source';

/**
 * Every file of a web feature, at any depth and tests included, stays in its feature: it imports
 * no other feature (routes.tsx passes one feature's part to another as a slot), and it leaves its
 * feature only by an alias (`#web/lib/...`, `#web/components/...`, `#contract/...`), never by `../`.
 * Biome's globs name depths (features/X/*, features/X/Y/*); this walks them all.
 */
export function webFeatureProblems(at: Layout): string[] {
  const problems: string[] = [];
  for (const file of sourceFiles(at.webFeatures)) {
    const feature = path.relative(at.webFeatures, file).split(path.sep)[0]!;
    const featureDir = path.join(at.webFeatures, feature);
    for (const { specifier, line } of parse(file).imports) {
      const to = target(at, file, specifier);
      if (to === null || isInside(featureDir, to)) continue;
      const where = `${shown(at, file)}:${line}`;
      if (isInside(at.webFeatures, to)) {
        const other = path.relative(at.webFeatures, to).split(path.sep)[0];
        problems.push(
          `${where} imports ${specifier}: the web feature ${feature} imports no other feature (${other}); shared code lives in #web/lib or #web/components, and routes.tsx passes one feature's part to another as a slot.`,
        );
      } else if (specifier.startsWith('.')) {
        problems.push(
          `${where} imports ${specifier}: this path leaves the feature; import shared code as #web/lib/..., #web/components/... or #contract/....`,
        );
      }
    }
  }
  return problems;
}
