import { isInside, type Layout, parse, shown, sourceFiles, target } from './source';

/** A relative specifier that climbs: `..`, `../x`, `./a/../../x`. */
const climbs = (specifier: string) => specifier.startsWith('.') && specifier.split('/').includes('..');

/**
 * Server code (src/server, its unit tests included) names another server module by where it is,
 * `#server/...` (or `#contract/...`), never by a `../` path: one spelling per module, so a file
 * moves without rewriting what it imports and a search finds every importer. A path down from the
 * importing file's folder (`./x`, `./repo/x`) stays relative: it cannot leave that folder. A path
 * to what has no alias (a test reading program/linker) stays too.
 */
export function serverImportProblems(at: Layout): string[] {
  const problems: string[] = [];
  for (const file of sourceFiles(at.server))
    for (const { specifier, line } of parse(file).imports) {
      if (!climbs(specifier)) continue;
      const to = target(at, file, specifier)!;
      if (isInside(at.server, to) || isInside(at.contract, to))
        problems.push(
          `${shown(at, file)}:${line} imports ${specifier}: server code imports server modules as #server/... and the contract as #contract/... (only ./ paths into its own folder stay relative).`,
        );
    }
  return problems;
}
