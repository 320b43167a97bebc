import { chainOnlyProblems } from './chain-only';
import { serverFeatureProblems } from './server-features';
import { serverImportProblems } from './server-imports';
import { layout } from './source';
import { webFeatureProblems } from './web-features';

/** Every boundary rule over the repository at `root`: all problems found, in rule order. */
export function checkBoundaries(root: string): { problems: string[]; summary: string } {
  const at = layout(root);
  const server = serverFeatureProblems(at);
  return {
    problems: [
      ...server.problems,
      ...serverImportProblems(at),
      ...webFeatureProblems(at),
      ...chainOnlyProblems(at),
    ],
    summary: `${server.features} server features: SQL only in repos, features import each other's service or published modules, no cycle; server imports through #server/; web features import no other feature; chain-only scripts reach only the chain.`,
  };
}
