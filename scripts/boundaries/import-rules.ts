import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { IForbiddenRuleType } from 'dependency-cruiser';
import { PUBLISHED, REGISTERED_PLUGINS } from './published';

/**
 * The import rules of docs/decisions/019-feature-layers.md and 078-boundary-rules.md, as
 * dependency-cruiser rules: each names a module the import resolves to (by path from the
 * repository root), whatever its spelling (relative, `#server/...`, `#web/...`) or depth. A
 * violation prints the rule's name and its comment.
 */

/**
 * Scripts an operator runs with nothing but an RPC URL (docs/decisions/041-guardian-script.md):
 * importing the server's config, database or features would tie them to a server's setup.
 */
export const CHAIN_ONLY_SCRIPTS = ['scripts/guardian.ts', 'scripts/refund-dare.ts'];

const FEATURES = '^src/server/features/';
const TEST = '\\.test\\.tsx?$';
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const modules = (names: string[]) => names.map((name) => `${FEATURES}${literal(name)}\\.tsx?$`);

/** What any server module may import of a feature: its service.ts and what it publishes (published.ts). */
const PUBLIC = [`${FEATURES}[^/]+/service\\.tsx?$`, ...modules(Object.keys(PUBLISHED))];

/** The server features that have a service.ts: their routes read through it. */
function featuresWithService(root: string): string[] {
  const dir = path.join(root, 'src/server/features');
  return readdirSync(dir)
    .filter((name) => {
      try {
        return statSync(path.join(dir, name, 'service.ts')).isFile();
      } catch {
        return false;
      }
    })
    .sort();
}

export function importRules(root: string): IForbiddenRuleType[] {
  const withService = featuresWithService(root).map(literal).join('|');
  const rules: IForbiddenRuleType[] = [
    {
      name: 'not-to-unresolvable',
      comment:
        'every relative or #alias import names a file that exists: the rules below follow imports to files.',
      from: { path: '^(src|scripts)/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'feature-internals',
      comment:
        "a server feature imports of another feature only its service.ts or a module it publishes (scripts/boundaries/published.ts): call the service, publish the piece (019's table too), or read the rows in your own repo.",
      from: { path: `${FEATURES}([^/]+)/`, pathNot: TEST },
      to: { path: FEATURES, pathNot: [`${FEATURES}$1/`, ...PUBLIC] },
    },
    {
      name: 'feature-internals-from-outside',
      comment:
        "server code outside the features, and the npm scripts, import of a feature only its service.ts or a module it publishes (scripts/boundaries/published.ts); src/server/routes.ts also registers each feature's routes.ts, lifecycle.ts and the plugins in REGISTERED_PLUGINS.",
      from: { path: '^(src/server|scripts)/', pathNot: [FEATURES, TEST, '^src/server/routes\\.ts$'] },
      to: { path: FEATURES, pathNot: PUBLIC },
    },
    {
      name: 'routes-registers-features',
      comment:
        'src/server/routes.ts registers of a feature its routes.ts, its lifecycle.ts, the plugins in REGISTERED_PLUGINS (scripts/boundaries/published.ts), and otherwise imports only what any module may.',
      from: { path: '^src/server/routes\\.ts$' },
      to: {
        path: FEATURES,
        pathNot: [
          ...PUBLIC,
          `${FEATURES}[^/]+/(routes|lifecycle)\\.tsx?$`,
          ...modules(Object.keys(REGISTERED_PLUGINS)),
        ],
      },
    },
    {
      name: 'routes-through-service',
      comment:
        'a feature with a service.ts reaches its repo only through it: its routes.ts imports no repo file.',
      from: { path: `${FEATURES}(${withService})/routes\\.tsx?$` },
      to: { path: [`${FEATURES}$1/repo(\\.tsx?$|/)`, `${FEATURES}$1/.*/repo(\\.tsx?$|/)`] },
    },
    {
      name: 'server-relative-climb',
      comment:
        'server code imports server modules as #server/... and the contract as #contract/... (only ./ paths into its own folder stay relative).',
      from: { path: '^(src/server/.+)/[^/]+$' },
      to: {
        path: '^src/(server|contract)/',
        pathNot: '^$1/',
        dependencyTypes: ['local'],
        dependencyTypesNot: ['aliased'],
      },
    },
    {
      name: 'product-imports-test-support',
      comment:
        "product code (src/ and scripts/, their tests aside) never imports test support (test/, e2e/): the server, the web app and the operator's scripts run without it.",
      from: { path: '^(src|scripts)/', pathNot: TEST },
      to: { path: '^(test|e2e)/' },
    },
    {
      name: 'server-imports-web',
      comment:
        'server code never imports the web app: what both sides need lives in src/contract (#contract/*).',
      from: { path: '^src/server/' },
      to: { path: '^src/web/' },
    },
    {
      name: 'contract-imports-only-zod',
      comment:
        'src/contract is what web and server agree on, bundled into both: it imports only zod and other contract files (no drizzle-orm, no Node built-in, no server or web code).',
      from: { path: '^src/contract/', pathNot: TEST },
      to: { pathNot: ['^src/contract/', '^node_modules/zod/'] },
    },
    {
      name: 'contract-tests-import-only-zod',
      comment: 'a contract test imports only zod, vitest and contract files, as the contract does.',
      from: { path: `^src/contract/.*${TEST}` },
      to: { pathNot: ['^src/contract/', '^node_modules/(zod|vitest|@vitest/[^/]+)/'] },
    },
    {
      name: 'web-imports-server',
      comment:
        'the web app never imports server code: what both sides need lives in src/contract (#contract/*).',
      from: { path: '^src/web/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'web-feature-imports-feature',
      comment:
        "a web feature, at any depth and tests included, imports no other feature: shared code lives in #web/lib or #web/components, and routes.tsx passes one feature's part to another as a slot.",
      from: { path: '^src/web/features/([^/]+)/' },
      to: { path: '^src/web/features/', pathNot: '^src/web/features/$1/' },
    },
    {
      name: 'web-feature-leaves-by-path',
      comment:
        'a relative path leaves the web feature: import shared code as #web/lib/..., #web/components/... or #contract/....',
      from: { path: '^(src/web/features/[^/]+)/' },
      to: {
        path: '^src/',
        pathNot: '^$1/',
        dependencyTypes: ['local'],
        dependencyTypesNot: ['aliased'],
      },
    },
    {
      name: 'web-shared-imports-feature',
      comment:
        "#web/lib and #web/components are shared by every feature and import none: routes.tsx passes a feature's part in as a slot.",
      from: { path: '^src/web/(lib|components)/' },
      to: { path: '^src/web/features/' },
    },
    {
      name: 'chain-only-script',
      comment:
        'a chain-only script (decision 041) runs with no DarePool server or database: everything it reaches is in src/server/chain or src/contract.',
      from: { path: `^(${CHAIN_ONLY_SCRIPTS.map(literal).join('|')})$` },
      to: { path: '^src/', pathNot: '^src/(server/chain|contract)/', reachable: true },
    },
  ];
  return rules.map((rule) => ({ severity: 'error', ...rule }));
}
