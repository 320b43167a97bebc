/**
 * The doc-paths step of `npm run check`: every repository path README.md and docs/**\/*.md name
 * exists, and every decision record has its status line and its row in the index (the rules:
 * scripts/doc-paths.ts, docs/testing.md). Exits 1 listing every problem.
 *
 * `node --import tsx scripts/check-doc-paths.ts [root]` checks another copy of the repository.
 */
import path from 'node:path';
import { checkDocPaths } from './doc-paths';

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
const { problems, documents, paths } = checkDocPaths(root);
if (problems.length > 0) {
  console.error(`check-doc-paths: ${problems.length} problem(s) in the docs (docs/testing.md)\n`);
  for (const problem of problems) console.error(problem);
  process.exit(1);
}
console.log(
  `check-doc-paths: ${paths} paths named in ${documents} documents, all exist; every decision record has its status and index row`,
);
