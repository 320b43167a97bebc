import path from 'node:path';
import { isInside, type Layout, parse, shown, sourceFile, target } from './source';

/**
 * Scripts an operator runs with nothing but an RPC URL (docs/decisions/041-guardian-script.md):
 * importing the server's config, database or features would tie them to a server's setup.
 */
export const CHAIN_ONLY_SCRIPTS = ['scripts/guardian.ts', 'scripts/refund-dare.ts'];

/** Every file a chain-only script reaches, through every import it follows, is in src/server/chain or src/contract. */
export function chainOnlyProblems(at: Layout): string[] {
  const problems: string[] = [];
  const allowed = [path.join(at.server, 'chain'), at.contract];
  for (const script of CHAIN_ONLY_SCRIPTS) {
    const seen = new Set<string>();
    const queue: { file: string; via: string }[] = [{ file: path.join(at.root, script), via: script }];
    while (queue.length > 0) {
      const { file, via } = queue.shift()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const { specifier } of parse(file).imports) {
        const to = target(at, file, specifier);
        const reached = to === null ? null : sourceFile(to);
        if (reached === null) continue;
        if (!allowed.some((dir) => isInside(dir, reached))) {
          problems.push(
            `${script} reaches ${shown(at, reached)} (${shown(at, file)} imports ${specifier}, via ${via}): it runs with no DarePool server or database, so it imports only src/server/chain and src/contract.`,
          );
          continue;
        }
        queue.push({ file: reached, via: shown(at, file) });
      }
    }
  }
  return problems;
}
