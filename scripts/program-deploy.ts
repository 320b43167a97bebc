/**
 * Every form takes --v2 to act on escrow v2 (program/build/darepool_escrow_v2.so, default program
 * keypair program/build/program-v2-keypair.json) instead of v1.
 * npm run program:deploy -- --keypair <file> [--program-keypair <file>] [--final]
 *   Deploys program/build/darepool_escrow.so to the cluster of SOLANA_RPC_URL through the
 *   upgradeable loader (buffer, chunked writes, DeployWithMaxDataLen). --keypair (a solana-keygen
 *   JSON file) pays and is the upgrade authority; --program-keypair holds the program id (created
 *   there when the file does not exist: keep it). --final removes the upgrade authority in the same
 *   transaction as the deploy: nobody can ever change the code (recommended).
 * npm run program:deploy -- --keypair <authority file> --make-immutable <program id>
 *   Removes the upgrade authority of a program deployed without --final.
 * npm run program:deploy -- --verify <program id>
 *   Compares the bytes deployed at that program id with the committed .so (sha256 of both).
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { address, createSolanaRpc } from '@solana/kit';
import {
  checkDeployedProgram,
  deployProgram,
  makeProgramImmutable,
  rpcDeployTarget,
} from '#server/chain/escrow-program/deploy';
import { readKeypairFile, writeNewKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { readEscrowProgram, sha256Hex } from '#server/chain/escrow-program/program';
import { readEscrowProgramV2 } from '#server/chain/escrow-program/v2/program';
import { loadDotEnv } from '#server/config';

function fail(message: string): never {
  console.error(`program:deploy: ${message}`);
  process.exit(1);
}

async function readKeypair(path: string) {
  try {
    return await readKeypairFile(path);
  } catch (error) {
    fail((error as Error).message);
  }
}

const { values } = parseArgs({
  options: {
    keypair: { type: 'string' },
    'program-keypair': { type: 'string' },
    final: { type: 'boolean', default: false },
    verify: { type: 'string' },
    'make-immutable': { type: 'string' },
    v2: { type: 'boolean', default: false },
  },
});
loadDotEnv();
const rpcUrl = process.env.SOLANA_RPC_URL;
if (!rpcUrl) fail('set SOLANA_RPC_URL to the cluster to deploy to');
const rpc = createSolanaRpc(rpcUrl);
const local = values.v2 ? readEscrowProgramV2() : readEscrowProgram();
const localFile = values.v2 ? 'program/build/darepool_escrow_v2.so' : 'program/build/darepool_escrow.so';

if (values.verify) {
  const check = await checkDeployedProgram(rpc, address(values.verify), local);
  if (!check.deployedSha256) fail(`${values.verify} is not an upgradeable-loader program on ${rpcUrl}`);
  console.log(`deployed  ${check.deployedSha256} (${values.verify})`);
  console.log(`committed ${check.expectedSha256} (${localFile})`);
  console.log(check.upgradeAuthority ? `Upgradeable by ${check.upgradeAuthority}.` : 'Immutable.');
  console.log(
    check.same
      ? 'The deployed program is this source.'
      : 'DIFFERENT: the deployed program is not this build.',
  );
  process.exit(check.same ? 0 : 1);
}

if (!values.keypair)
  fail('--keypair <file> is required (it pays and is the upgrade authority until --final)');
const payer = await readKeypair(values.keypair);
if (values['make-immutable']) {
  const programId = address(values['make-immutable']);
  await makeProgramImmutable({ target: rpcDeployTarget(rpc), authority: payer, programId });
  console.log(`${programId} is now immutable: no key can change it.`);
  process.exit(0);
}
const programKeypairPath =
  values['program-keypair'] ??
  (values.v2 ? 'program/build/program-v2-keypair.json' : 'program/build/program-keypair.json');
if (!existsSync(programKeypairPath)) {
  writeNewKeypairFile(programKeypairPath);
  console.log(`Wrote a new program keypair to ${programKeypairPath}: keep it, it is the program id.`);
}
const program = await readKeypair(programKeypairPath);
console.log(
  `Deploying ${local.length} bytes (sha256 ${sha256Hex(local)}) as ${program.address} to ${rpcUrl}`,
);
const result = await deployProgram({
  target: rpcDeployTarget(rpc),
  payer,
  program,
  bytes: local,
  final: values.final,
  onProgress: (written, total) => process.stdout.write(`\r  wrote ${written}/${total} bytes`),
});
console.log(`\nDeployed ${result.programId} (program data ${result.programDataAddress}).`);
console.log(
  result.immutable
    ? 'Immutable: no key can change this program.'
    : `Upgradeable by ${payer.address}: that key can replace the code. Make it immutable with --make-immutable ${result.programId}.`,
);
