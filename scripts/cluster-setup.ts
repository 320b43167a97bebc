/**
 * npm run cluster:setup -- --rpc <url> --judges <address,address> [--guardian <address>]
 *     [--upgrade-authority <address> | --final] [--cluster <name>] [--keys <dir>] [--master-seed <file>] [--out <file>] [--force] [--wait]
 *     [--v1-program <address>]
 *   Prepares a DarePool deployment on a cluster (devnet, mainnet-beta, a local validator):
 *   - the keys the server needs, in --keys (default ./cluster-keys, mode 0700): the master seed
 *     (escrow-master-seed, 0600, never printed; or the operator's own with --master-seed <file>),
 *     from which the fee payer and the moderator derive; the guardian's keypair
 *     (guardian-keypair.json: move it offline) unless --guardian names the operator's; escrow
 *     program v2's keypair (its address is the program id). Judges are always the operator's
 *     own wallets (--judges, 1 to 5); the server's rules refuse any key it holds as a judge, the
 *     guardian or the upgrade authority, checked here before anything is spent;
 *   - prints what to fund, and with how much: the fee payer (escrow program v2's deploy, from
 *     its size and the cluster's rent, plus FEE_PAYER_MIN_SOL to run on) and the guardian (ten
 *     vetoes' fees above its rent-exempt minimum); checks the balances, and exits 2 naming what is
 *     missing, or with --wait polls until it is there;
 *   - deploys escrow program v2 (every new vault is v2's), immutable, or upgradeable only by
 *     --upgrade-authority (an offline key or a multisig; never the fee payer), then checks that the
 *     deployed bytes are the committed .so (sha256). Never v1: it only serves vaults that exist
 *     (decision 081). A cluster that has v1 vaults names its deployed v1 with --v1-program (or
 *     keeps the ESCROW_PROGRAM_ID of --out), checked here as the server checks it;
 *   - writes --out (default .env, mode 0600) with everything filled but DATABASE_URL and PUBLIC_URL
 *     (the judges are ADMIN_WALLETS too; --cluster sets SOLANA_CLUSTER for an RPC URL that does
 *     not name its cluster),
 *     which only the operator can fill. An existing file that says otherwise is left alone unless
 *     --force (which keeps its DATABASE_URL and PUBLIC_URL).
 *   A second run reuses the keys, the deployed programs and the file, and changes nothing.
 *   Exit codes: 0 ready, 1 refused (one line saying why), 2 funds missing.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, parseEnv } from 'node:util';
import { type Address, address, createSolanaRpc, isAddress } from '@solana/kit';
import { lamportsToSol } from '#contract/money';
import { createEscrowKeys } from '#server/chain/escrow-keys';
import {
  checkDeployedProgram,
  deployCost,
  deployProgram,
  rpcDeployTarget,
} from '#server/chain/escrow-program/deploy';
import { readKeypairFile, writeNewKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { readEscrowProgram, sha256Hex } from '#server/chain/escrow-program/program';
import { readEscrowProgramV2 } from '#server/chain/escrow-program/v2/program';
import { GUARDIAN_MIN_LAMPORTS } from '#server/chain/guardian-funds';
import { ConfigError, loadConfig } from '#server/config';
import { checkUpgradeAuthority, resolveJudging } from '#server/judging-keys';

const EXIT_FUNDS_MISSING = 2;
const WAIT_POLL_MS = 2_000;
const VERIFY_TIMEOUT_MS = 90_000;

function fail(message: string): never {
  console.error(`cluster:setup: ${message}`);
  process.exit(1);
}

const { values } = parseArgs({
  options: {
    rpc: { type: 'string' },
    judges: { type: 'string' },
    guardian: { type: 'string' },
    'upgrade-authority': { type: 'string' },
    keys: { type: 'string', default: 'cluster-keys' },
    'master-seed': { type: 'string' },
    out: { type: 'string', default: '.env' },
    force: { type: 'boolean', default: false },
    wait: { type: 'boolean', default: false },
    final: { type: 'boolean', default: false },
    cluster: { type: 'string' },
    'v1-program': { type: 'string' },
  },
});

const rpcUrl = values.rpc ?? process.env.SOLANA_RPC_URL;
if (!rpcUrl) fail('--rpc <url> is required (e.g. https://api.devnet.solana.com)');
if (!values.judges)
  fail("--judges <address,...> is required: 1 to 5 admins' own wallets, which name winners");
if (values.final && values['upgrade-authority'])
  fail('--final and --upgrade-authority exclude each other: immutable, or upgradeable by that key');
for (const [flag, value] of [
  ['--guardian', values.guardian],
  ['--upgrade-authority', values['upgrade-authority']],
  ['--v1-program', values['v1-program']],
] as const) {
  if (value !== undefined && !isAddress(value)) fail(`${flag} ${value} is not a base58 address`);
}
const upgradeAuthority = values['upgrade-authority'] ? address(values['upgrade-authority']) : null;
const keysDir = path.resolve(values.keys);
const outFile = path.resolve(values.out);

/** What an earlier run wrote (or the operator keeps): reused so a rerun changes nothing. */
const existing: Record<string, string | undefined> = existsSync(outFile)
  ? parseEnv(readFileSync(outFile, 'utf8'))
  : {};

/**
 * Escrow program v1, deployed long ago, where this cluster has vaults of it: the operator's
 * --v1-program, or the id --out already holds. null: none, and none is deployed (decision 081).
 */
const v1ProgramId: Address | null = values['v1-program']
  ? address(values['v1-program'])
  : existing.ESCROW_PROGRAM_ID && isAddress(existing.ESCROW_PROGRAM_ID)
    ? existing.ESCROW_PROGRAM_ID
    : null;

mkdirSync(keysDir, { recursive: true, mode: 0o700 });
const seedHex = readOrCreateSeed();
const guardian = await readOrCreateGuardian();
const program = {
  name: 'v2',
  variable: 'ESCROW_PROGRAM_V2_ID',
  bytes: readEscrowProgramV2(),
  file: 'escrow-program-v2-keypair.json',
};
const programKey = await keyInKeysDir(program.file);

const env: Record<string, string> = {
  SOLANA_RPC_URL: rpcUrl,
  ESCROW_MASTER_SEED: seedHex,
  ...(v1ProgramId ? { ESCROW_PROGRAM_ID: v1ProgramId } : {}),
  ESCROW_PROGRAM_V2_ID: programKey.address,
  ...(upgradeAuthority ? { ESCROW_PROGRAM_UPGRADE_AUTHORITY: upgradeAuthority } : {}),
  ...(values.cluster ? { SOLANA_CLUSTER: values.cluster } : {}),
  JUDGE_WALLETS: values.judges,
  // The judges sign in as admins: judging happens on the admin pages.
  ADMIN_WALLETS: values.judges,
  GUARDIAN_WALLET: guardian,
};

// Whoever holds the upgrade authority can replace the code and with it take every pool: a judge
// or the guardian holding it too would need no one else.
if (
  upgradeAuthority &&
  (upgradeAuthority === guardian || values.judges.split(',').some((j) => j.trim() === upgradeAuthority))
)
  fail(
    `--upgrade-authority ${upgradeAuthority} is also ${upgradeAuthority === guardian ? 'the guardian' : 'a judge'}: with it that key alone could replace the escrow program and take every pool; name a key of its own (e.g. a multisig)`,
  );

// The server's own checks, before anything is spent: a setup it would refuse is refused here.
const escrowKeys = createEscrowKeys(Uint8Array.from(Buffer.from(seedHex, 'hex')));
let feePayerMin: bigint;
try {
  const config = loadConfig({ ...env, FEE_PAYER_MIN_SOL: process.env.FEE_PAYER_MIN_SOL || undefined });
  await resolveJudging(config, escrowKeys);
  checkUpgradeAuthority(config, escrowKeys);
  feePayerMin = config.feePayerMinLamports;
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

const OURS = [
  ...new Set([
    ...Object.keys(env),
    'ESCROW_PROGRAM_ID',
    'ESCROW_PROGRAM_UPGRADE_AUTHORITY',
    'SOLANA_CLUSTER',
  ]),
];
const differing = OURS.filter((key) => (existing[key] ?? '') !== (env[key] ?? ''));
const writeOut = !existsSync(outFile) || differing.length > 0;
if (existsSync(outFile) && differing.length > 0 && !values.force)
  fail(
    `${values.out} exists and holds other values for ${differing.join(', ')}: left alone. Name another file with --out, or replace it with --force (its DATABASE_URL and PUBLIC_URL are kept)`,
  );

const rpc = createSolanaRpc(rpcUrl);
try {
  await rpc.getLatestBlockhash().send();
} catch (error) {
  fail(`cannot reach ${rpcUrl}: ${(error as Error).message}`);
}
const feePayer = await escrowKeys.feePayer();
console.log(`Cluster:    ${rpcUrl}`);
console.log(`Keys:       ${keysDir} (back it up; the master seed is in escrow-master-seed)`);
console.log(`Fee payer:  ${feePayer.address} (derived from the master seed)`);
console.log(`Guardian:   ${guardian}`);
console.log(`Judges:     ${values.judges}`);

// v1 is never deployed here: a v1 named for the vaults a cluster has must already run this build,
// held so the server accepts it (immutable, or by the one upgrade authority it is told).
if (v1ProgramId) {
  const v1 = await checkDeployedProgram(rpc, v1ProgramId, readEscrowProgram());
  if (v1.deployedSha256 === null)
    fail(
      `no escrow program v1 is deployed at ${v1ProgramId} (ESCROW_PROGRAM_ID): v1 only serves the vaults that exist (docs/decisions/081); name the one your cluster's v1 vaults belong to, or none on a cluster without v1 vaults`,
    );
  if (!v1.same)
    fail(
      `escrow program v1 at ${v1ProgramId} runs other bytes than program/build (sha256 ${v1.deployedSha256}, committed ${v1.expectedSha256}): the server would refuse it`,
    );
  if (v1.upgradeAuthority !== null && v1.upgradeAuthority !== upgradeAuthority)
    fail(
      `escrow program v1 at ${v1ProgramId} is upgradeable by ${v1.upgradeAuthority}, which the server would refuse unless it is --upgrade-authority; make it immutable (npm run program:deploy -- --keypair <that key> --make-immutable ${v1ProgramId})`,
    );
  console.log(
    `Escrow program v1: ${v1ProgramId} deployed, ${describeAuthority(v1.upgradeAuthority)} (kept for this cluster's v1 vaults)`,
  );
}

// Deploy v2 only if it is not there yet; already at its id, it must be this build, held as asked.
const programId = programKey.address;
const check = await checkDeployedProgram(rpc, programId, program.bytes);
const toDeploy = check.deployedSha256 === null;
if (!toDeploy) {
  if (!check.same)
    fail(
      `escrow program ${program.name} at ${programId} runs other bytes than program/build (sha256 ${check.deployedSha256}, committed ${check.expectedSha256}); to deploy this build at a new id, move ${path.join(keysDir, program.file)} away (then ${program.variable} changes)`,
    );
  if (check.upgradeAuthority !== upgradeAuthority)
    fail(
      `escrow program ${program.name} at ${programId} is ${check.upgradeAuthority ? `upgradeable by ${check.upgradeAuthority}` : 'immutable'}, not ${upgradeAuthority ? `upgradeable by ${upgradeAuthority}` : 'immutable'} as asked; ${check.upgradeAuthority ? `run with --upgrade-authority ${check.upgradeAuthority}, or make it immutable first (npm run program:deploy -- --keypair <that key> --make-immutable ${programId})` : 'run without --upgrade-authority'}`,
    );
  console.log(
    `Escrow program ${program.name}: ${programId} already deployed, ${describeAuthority(check.upgradeAuthority)}`,
  );
}

const target = rpcDeployTarget(rpc, { pollMs: 400 });
const rentFloor = await target.minimumBalanceForRentExemption(0);
const deployNeed = toDeploy ? await deployCost(target, program.bytes.length) : 0n;
const needs = [
  {
    what: 'fee payer',
    address: feePayer.address,
    lamports: deployNeed + feePayerMin,
    why: `${toDeploy ? `${lamportsToSol(deployNeed)} SOL to deploy escrow program ${program.name} (rent and fees), ` : ''}${lamportsToSol(feePayerMin)} SOL to pay the app's fees and rents (FEE_PAYER_MIN_SOL)`,
  },
  {
    what: 'guardian',
    address: guardian,
    lamports: rentFloor + GUARDIAN_MIN_LAMPORTS,
    why: `ten vetoes' fees (${lamportsToSol(GUARDIAN_MIN_LAMPORTS)} SOL) above the rent-exempt minimum (${lamportsToSol(rentFloor)} SOL)`,
  },
];
console.log('\nWhat each account needs:');
for (const need of needs)
  console.log(`  ${need.what.padEnd(9)} ${need.address}  ${lamportsToSol(need.lamports)} SOL: ${need.why}`);

let lastMissing = '';
while (true) {
  const missing: string[] = [];
  for (const need of needs) {
    const balance = await balanceOf(need.address);
    if (balance < need.lamports)
      missing.push(
        `  send ${lamportsToSol(need.lamports - balance)} SOL to ${need.address} (${need.what}, holds ${lamportsToSol(balance)})`,
      );
  }
  if (missing.length === 0) break;
  // While waiting, a line only when a balance moved.
  if (missing.join() !== lastMissing) console.log(`\nMissing:\n${missing.join('\n')}`);
  if (!values.wait) {
    console.log(
      `\nFund them (e.g. solana transfer <address> <SOL> --allow-unfunded-recipient --url ${rpcUrl}; on devnet https://faucet.solana.com), then run this again, or add --wait.`,
    );
    process.exit(EXIT_FUNDS_MISSING);
  }
  if (missing.join() !== lastMissing)
    console.log(`Waiting for the funds (checking every ${WAIT_POLL_MS / 1000} s; Ctrl-C stops)…`);
  lastMissing = missing.join();
  await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
}
console.log('\nFunded.');

if (toDeploy) {
  console.log(`Deploying escrow program ${program.name} (${program.bytes.length} bytes) as ${programId}`);
  await deployProgram({
    target,
    payer: feePayer,
    program: programKey,
    bytes: program.bytes,
    final: upgradeAuthority === null,
    ...(upgradeAuthority ? { upgradeAuthority } : {}),
  });
}
const deployed = await deployedOnceVisible(programId, program.bytes);
if (!deployed.same || deployed.upgradeAuthority !== upgradeAuthority)
  fail(
    `escrow program ${program.name} at ${programId} is not what was deployed: run npm run program:deploy -- --verify ${programId}`,
  );
console.log(
  `Verified escrow program ${program.name} ${programId}: sha256 ${sha256Hex(program.bytes)} = program/build, ${describeAuthority(deployed.upgradeAuthority)}`,
);

if (writeOut) {
  writeFileSync(outFile, envFileText(), { mode: 0o600 });
  chmodSync(outFile, 0o600);
  console.log(`\nWrote ${values.out} (mode 0600: it holds the master seed).`);
} else console.log(`\n${values.out} already holds these settings: unchanged.`);
console.log(`
Next:
  - fill DATABASE_URL (PostgreSQL; empty = PGlite in DATA_DIR, one instance only) and PUBLIC_URL
    (the site's https origin; wallet sign-in needs it on a public host) in ${values.out};
  - ${existsSync(path.join(keysDir, 'guardian-keypair.json')) ? `move ${path.join(keysDir, 'guardian-keypair.json')} to the offline machine that vetoes (npm run guardian -- veto --keypair <it>)` : 'keep the guardian key offline'};
  - npm start`);

/** A public RPC hiccups now and then: while waiting, a failed read is retried at the next poll. */
async function balanceOf(account: Address): Promise<bigint> {
  while (true) {
    try {
      return (await rpc.getBalance(account, { commitment: 'confirmed' }).send()).value;
    } catch (error) {
      if (!values.wait)
        fail(`cannot read the balance of ${account} on ${rpcUrl}: ${(error as Error).message}`);
      console.log(`Reading ${account}'s balance failed (${(error as Error).message}); retrying.`);
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
  }
}

/** The check reads at the RPC's default commitment (finalized), which trails a fresh deploy on a cluster. */
async function deployedOnceVisible(id: Address, bytes: Uint8Array) {
  const deadline = Date.now() + VERIFY_TIMEOUT_MS;
  while (true) {
    const check = await checkDeployedProgram(rpc, id, bytes);
    if (check.deployedSha256 !== null || Date.now() > deadline) return check;
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
  }
}

function describeAuthority(authority: Address | null): string {
  return authority ? `upgradeable only by ${authority}` : 'immutable (no key can change its code)';
}

/** The operator's seed (--master-seed), the keys folder's, the one an earlier .env holds, or a new one. */
function readOrCreateSeed(): string {
  const seedFile = path.join(keysDir, 'escrow-master-seed');
  const from = values['master-seed'] ?? (existsSync(seedFile) ? seedFile : null);
  if (from) {
    let hex: string;
    try {
      hex = readFileSync(from, 'utf8').trim();
    } catch (error) {
      fail(`cannot read the master seed ${from}: ${(error as Error).message}`);
    }
    if (!/^[0-9a-fA-F]{128}$/.test(hex))
      fail(`${from} is not a master seed (64 bytes as 128 hex characters)`);
    return hex.toLowerCase();
  }
  if (existing.ESCROW_MASTER_SEED) return existing.ESCROW_MASTER_SEED;
  const hex = randomBytes(64).toString('hex');
  writeFileSync(seedFile, `${hex}\n`, { mode: 0o600, flag: 'wx' });
  return hex;
}

/** --guardian, the keys folder's keypair, the GUARDIAN_WALLET an earlier .env names (its key moved offline), or a new keypair. */
async function readOrCreateGuardian(): Promise<Address> {
  if (values.guardian) return address(values.guardian);
  const file = path.join(keysDir, 'guardian-keypair.json');
  if (!existsSync(file) && existing.GUARDIAN_WALLET && isAddress(existing.GUARDIAN_WALLET))
    return existing.GUARDIAN_WALLET;
  return (await keyInKeysDir('guardian-keypair.json')).address;
}

async function keyInKeysDir(file: string) {
  const at = path.join(keysDir, file);
  if (!existsSync(at)) writeNewKeypairFile(at);
  try {
    return await readKeypairFile(at);
  } catch (error) {
    fail((error as Error).message);
  }
}

function envFileText(): string {
  const kept = (key: string) => (values.force ? (existing[key] ?? '') : '');
  return `# DarePool on ${rpcUrl}, written by npm run cluster:setup (docs/operations.md, "From zero to devnet").
# It holds ESCROW_MASTER_SEED: keep it secret (mode 0600), and back up ${keysDir}.
SOLANA_RPC_URL=${env.SOLANA_RPC_URL}
${env.SOLANA_CLUSTER ? `SOLANA_CLUSTER=${env.SOLANA_CLUSTER}\n` : ''}# The fee payer (${feePayer.address}) and the moderator derive from it; every instance needs the same.
ESCROW_MASTER_SEED=${env.ESCROW_MASTER_SEED}
${env.ESCROW_PROGRAM_ID ? `# Escrow program v1, kept for the vaults made with it before v2 (docs/decisions/081).\nESCROW_PROGRAM_ID=${env.ESCROW_PROGRAM_ID}\n` : ''}# Escrow program v2, which holds every new vault, ${describeAuthority(upgradeAuthority)}.
ESCROW_PROGRAM_V2_ID=${env.ESCROW_PROGRAM_V2_ID}
${upgradeAuthority ? `ESCROW_PROGRAM_UPGRADE_AUTHORITY=${upgradeAuthority}\n` : ''}# Admins' own wallets that name winners (admins when they sign in), and the offline key that may veto them.
JUDGE_WALLETS=${env.JUDGE_WALLETS}
ADMIN_WALLETS=${env.ADMIN_WALLETS}
GUARDIAN_WALLET=${env.GUARDIAN_WALLET}

# Yours to fill. A PostgreSQL server, postgresql://user:pass@host:5432/darepool (empty: PGlite in
# DATA_DIR, for one instance only).
DATABASE_URL=${kept('DATABASE_URL')}
# The site's public origin, e.g. https://darepool.example (wallet sign-in is bound to it).
PUBLIC_URL=${kept('PUBLIC_URL')}
`;
}
