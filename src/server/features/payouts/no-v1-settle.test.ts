/**
 * Escrow program v1 is retired (docs/decisions/050-retire-v1.md): its `settle` let the moderator
 * key, which the server holds, pay a vault to any wallet it entered. Its builder is test support
 * (test/support/chain/v1-vaults.ts: the program's own tests and the benchmarks use it), and
 * no module the server or its scripts run may build one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../../..');
const ENCODERS = 'src/server/chain/escrow-program/instructions.ts';

/** Tests beside the code they test: never loaded by the server (test support lives in test/support). */
function isTestSupport(file: string): boolean {
  return /\.test\.tsx?$/.test(file);
}

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !isTestSupport(file));
}

describe('no code path of the server signs a v1 settle', () => {
  it('builds settle instructions nowhere in src/server or scripts', () => {
    const files = [...sources('src/server'), ...sources('scripts')];
    expect(files).toContain(ENCODERS);
    const builders = files.filter(
      (file) =>
        file !== ENCODERS &&
        /\b(getSettleInstruction|getSettleAndCloseInstructions)\b/.test(
          readFileSync(path.join(root, file), 'utf8'),
        ),
    );
    expect(builders).toEqual([]);
  });
});
