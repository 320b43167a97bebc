/**
 * The part of `npm run check` Biome cannot express (docs/decisions/078-boundary-rules.md): import
 * rules that follow an import to the file it names, whatever its depth or spelling (relative,
 * `#server/...`, `#web/...`), run by dependency-cruiser, and SQL only in repos. The rules are in
 * scripts/boundaries/. Exits 1 listing every problem.
 *
 * `node --import tsx scripts/check-boundaries.ts [root]` checks another copy of the repository.
 */
import path from 'node:path';
import { checkBoundaries } from './boundaries/index';

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
const { problems, summary } = await checkBoundaries(root);
if (problems.length > 0) {
  console.error(`check-boundaries: ${problems.length} problem(s) (docs/decisions/078-boundary-rules.md)\n`);
  for (const problem of problems) console.error(`${problem}\n`);
  process.exit(1);
}
console.log(`check-boundaries: ${summary}`);
