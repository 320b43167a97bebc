/**
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
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ed25519 } from '@noble/curves/ed25519.js';
import { address, createKeyPairSignerFromBytes, createSolanaRpc } from '@solana/kit';
import {
  checkDeployedProgram,
  deployProgram,
  makeProgramImmutable,
  rpcDeployTarget,
} from '../src/server/chain/escrow-program/deploy';
import { readEscrowProgram, sha256Hex } from '../src/server/chain/escrow-program/program';
import { loadDotEnv } from '../src/server/config';

function fail(message: string): never {
  console.error(`program:deploy: ${message}`);
  process.exit(1);
}

async function readKeypair(path: string) {
  let bytes: unknown;
  try {
    bytes = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    fail(`cannot read keypair ${path}: ${(error as Error).message}`);
  }
  if (!Array.isArray(bytes) || bytes.length !== 64)
    fail(`${path} is not a solana-keygen keypair (64 numbers)`);
  return createKeyPairSignerFromBytes(new Uint8Array(bytes as number[]));
}

/** A new keypair written as solana-keygen does (secret seed then public key), readable back. */
function writeNewKeypair(path: string) {
  const secret = crypto.getRandomValues(new Uint8Array(32));
  const bytes = [...secret, ...ed25519.getPublicKey(secret)];
  writeFileSync(path, `${JSON.stringify(bytes)}\n`, { mode: 0o600, flag: 'wx' });
}

const { values } = parseArgs({
  options: {
    keypair: { type: 'string' },
    'program-keypair': { type: 'string' },
    final: { type: 'boolean', default: false },
    verify: { type: 'string' },
    'make-immutable': { type: 'string' },
  },
});
loadDotEnv();
const rpcUrl = process.env.SOLANA_RPC_URL;
if (!rpcUrl) fail('set SOLANA_RPC_URL to the cluster to deploy to');
const rpc = createSolanaRpc(rpcUrl);
const local = readEscrowProgram();

if (values.verify) {
  const check = await checkDeployedProgram(rpc, address(values.verify), local);
  if (!check.deployedSha256) fail(`${values.verify} is not an upgradeable-loader program on ${rpcUrl}`);
  console.log(`deployed  ${check.deployedSha256} (${values.verify})`);
  console.log(`committed ${check.expectedSha256} (program/build/darepool_escrow.so)`);
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
const programKeypairPath = values['program-keypair'] ?? 'program/build/program-keypair.json';
if (!existsSync(programKeypairPath)) {
  writeNewKeypair(programKeypairPath);
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
