/**
 * `npm run program:build`: compiles each program of program/src with Debian's clang-16 for BPF
 * and links it with our linker into program/build/ (the escrow v1, kept for the vaults it made,
 * and v2), printing each sha256.
 * `npm run program:build -- --check` builds to memory and exits 1 when a committed .so differs
 * (CI runs it: the committed bytes must be what this source builds to).
 * CLANG names another compiler binary (default clang-16).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { linkSbf } from '../program/linker/link';

const root = path.resolve(import.meta.dirname, '..');
/** Every program this repository builds: one C translation unit each. */
const PROGRAMS = ['darepool_escrow', 'darepool_escrow_v2'];
const check = process.argv.includes('--check');
const clang = process.env.CLANG ?? 'clang-16';

// Fixed flags and a relative source path keep the object independent of where the repo lives.
const CLANG_FLAGS = ['-target', 'bpf', '-mcpu=v2', '-O2', '-fPIC', '-ffreestanding', '-fno-builtin'];

function build(name: string, workDir: string): Uint8Array {
  const source = path.join(root, `program/src/${name}.c`);
  const object = path.join(workDir, `${name}.o`);
  const compiled = spawnSync(
    clang,
    [...CLANG_FLAGS, '-Wall', '-Wextra', '-Werror', '-c', path.relative(root, source), '-o', object],
    { cwd: root, stdio: 'inherit' },
  );
  if (compiled.error) {
    console.error(
      `Cannot run ${clang} (${compiled.error.message}). Install it: apt-get install -y clang-16 llvm-16`,
    );
    process.exit(1);
  }
  if (compiled.status !== 0) process.exit(compiled.status ?? 1);
  return linkSbf(new Uint8Array(readFileSync(object)));
}

const workDir = mkdtempSync(path.join(tmpdir(), 'darepool-program-'));
let differs = false;
try {
  for (const name of PROGRAMS) {
    const output = path.join(root, `program/build/${name}.so`);
    const program = build(name, workDir);
    const sha256 = createHash('sha256').update(program).digest('hex');
    if (check) {
      const committed = readFileSync(output);
      if (!committed.equals(program)) {
        const committedSha = createHash('sha256').update(committed).digest('hex');
        console.error(
          `program/build/${name}.so differs from its source: committed ${committedSha}, built ${sha256}`,
        );
        differs = true;
        continue;
      }
      console.log(`${name}.so matches its source: ${program.length} bytes, sha256 ${sha256}`);
    } else {
      writeFileSync(output, program);
      console.log(`${path.relative(root, output)}: ${program.length} bytes, sha256 ${sha256}`);
    }
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
if (differs) {
  console.error('Rebuild with `npm run program:build` and commit the result.');
  process.exit(1);
}
