/**
 * `npm run guardian` end to end with no DarePool server and no database: `npm run localnet` in a
 * process of its own, escrow v2 deployed on it where a local chain keeps its v2 program keypair,
 * dares made, entered and proposed over JSON-RPC, and the script in its own process reading and
 * vetoing them.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  type Address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Instruction,
  type KeyPairSigner,
  lamports,
  pipe,
  type Rpc,
  type SolanaRpcApi,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitForConfirmation } from '#server/chain/confirmation';
import { fetchChainTime } from '#server/chain/escrow-program/chain-clock';
import { ensureProgramDeployed } from '#server/chain/escrow-program/deploy';
import { readKeypairFile, writeNewKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { findVaultAddress } from '#server/chain/escrow-program/pda';
import { fetchVaultV2 } from '#server/chain/escrow-program/v2/accounts';
import {
  getCreateVaultV2Instruction,
  getDepositV2Instruction,
  getEnterV2Instruction,
  getProposeInstruction,
} from '#server/chain/escrow-program/v2/instructions';
import type { DareKind } from '#server/chain/escrow-program/v2/layout';
import { readEscrowProgramV2 } from '#server/chain/escrow-program/v2/program';
import { memoInstruction } from '#server/chain/memo';
import { REPO_ROOT } from '../e2e/fixtures/paths';
import { getFreePortPair } from '../e2e/fixtures/server';

const SOL = 1_000_000_000n;
const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-guardian-'));
let localnet: ChildProcess;
let rpcUrl: string;
let rpc: Rpc<SolanaRpcApi>;
let programId: Address;
let platform: KeyPairSigner;
let judge: KeyPairSigner;
let guardian: KeyPairSigner;
let guardianFile: string;

beforeAll(async () => {
  // The localnet's folder follows DATA_DIR (DATA_DIR/localnet), as `npm run localnet` does by default.
  localnet = spawn(process.execPath, ['--import', 'tsx', 'scripts/localnet.ts', '--rpc-port', '0'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  rpcUrl = await new Promise<string>((resolve, reject) => {
    localnet.once('message', (message) => resolve((message as { httpUrl: string }).httpUrl));
    localnet.once('exit', (code) => reject(new Error(`npm run localnet exited (${code}) before serving`)));
  });
  rpc = createSolanaRpc(rpcUrl);
  guardianFile = path.join(dataDir, 'guardian.json');
  writeNewKeypairFile(guardianFile);
  guardian = await readKeypairFile(guardianFile);
  const authority = await generateKeyPairSigner();
  platform = await generateKeyPairSigner();
  judge = await generateKeyPairSigner();
  await Promise.all([
    airdrop(authority.address, 5n * SOL),
    airdrop(platform.address, 5n * SOL),
    airdrop(judge.address, SOL),
    airdrop(guardian.address, SOL / 100n),
  ]);
  // Where a local chain's folder keeps v2's program keypair: the script finds the id there.
  ({ programId } = await ensureProgramDeployed({
    rpc,
    authority,
    keypairFile: path.join(dataDir, 'localnet', 'escrow-program-v2-keypair.json'),
    bytes: readEscrowProgramV2(),
  }));
}, 60_000);

afterAll(async () => {
  if (localnet && localnet.exitCode === null) {
    const exited = new Promise((resolve) => localnet.once('exit', resolve));
    localnet.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

async function airdrop(to: Address, amount: bigint) {
  const signature = await rpc.requestAirdrop(to, lamports(amount)).send();
  await waitForConfirmation(rpc, signature, { intervalMs: 20 });
}

async function send(feePayer: KeyPairSigner, instructions: Instruction[]) {
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const transaction = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    ),
  );
  await rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64' }).send();
  await waitForConfirmation(rpc, getSignatureFromTransaction(transaction), { intervalMs: 20 });
}

const proofHash = (text: string) => new Uint8Array(createHash('sha256').update(text).digest());

/** A v2 dare as DarePool makes one (the platform pays the rent, the memo names the dare), proposed. */
async function proposedDare(input: {
  kind: DareKind;
  stake: bigint;
  memo: string;
  guardian: Address;
  /** A backer's deposit each. */
  deposits: bigint[];
  winners: { wallet: KeyPairSigner; proof: string }[];
  /** Lamports a stranger sends to the vault's address before it exists, with its own memo. */
  before?: { lamports: bigint; memo: string };
}): Promise<Address> {
  const dareId = crypto.getRandomValues(new Uint8Array(32));
  const vault = (await findVaultAddress(programId, dareId)).address;
  if (input.before) {
    const stranger = await generateKeyPairSigner();
    await airdrop(stranger.address, SOL);
    await send(stranger, [
      getTransferSolInstruction({ source: stranger, destination: vault, amount: input.before.lamports }),
      memoInstruction(input.before.memo),
    ]);
  }
  const creator = await generateKeyPairSigner();
  await airdrop(creator.address, SOL);
  const deadline = (await fetchChainTime(rpc)) + 7200n;
  await send(platform, [
    await getCreateVaultV2Instruction({
      programId,
      creator,
      rentPayer: platform,
      dareId,
      amount: input.stake,
      kind: input.kind,
      deadline,
      refundAfter: deadline + 86_400n,
      judges: [judge.address],
      threshold: 1,
      guardian: input.guardian,
      canceller: platform.address,
      payoutWindow: 3600n,
    }),
    memoInstruction(input.memo),
  ]);
  for (const amount of input.deposits) {
    const backer = await generateKeyPairSigner();
    await airdrop(backer.address, SOL);
    await send(backer, [
      await getDepositV2Instruction({ programId, vault, payer: backer, rentPayer: platform, amount }),
    ]);
  }
  for (const { wallet, proof } of input.winners) {
    await airdrop(wallet.address, SOL / 10n);
    await send(wallet, [
      await getEnterV2Instruction({ programId, vault, entrant: wallet, proofHash: proofHash(proof) }),
    ]);
  }
  await send(judge, [
    await getProposeInstruction({
      programId,
      vault,
      winners: input.winners.map((w) => w.wallet.address),
      judges: [judge],
    }),
  ]);
  return vault;
}

/** The script in its own process; env as an operator's shell would have it (no .env values leak in). */
async function guardianScript(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/guardian.ts', ...args],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          SOLANA_RPC_URL: rpcUrl,
          ESCROW_PROGRAM_V2_ID: '',
          GUARDIAN_WALLET: '',
          DAREPOOL_URL: '',
          ...env,
        },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const isoMinute = (unix: bigint) =>
  `${new Date(Number(unix) * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

it('lists the proposals in their window, vetoes one with the guardian key, and refuses in one line', async () => {
  const winner = await generateKeyPairSigner();
  // A stranger mentions the vault's address first, with a memo naming another dare: the script
  // reads the memo of the transaction that created the vault, not of the oldest one.
  const community = await proposedDare({
    kind: 'community',
    stake: 300_000_000n,
    deposits: [50_000_000n],
    memo: 'DarePool dare 42',
    guardian: guardian.address,
    winners: [{ wallet: winner, proof: 'walker1.mp4' }],
    before: { lamports: 1_000_000n, memo: 'DarePool dare 666' },
  });
  // A major dare guarded by another key, with an odd pot: 70/30, the odd lamport to the first.
  const first = await generateKeyPairSigner();
  const second = await generateKeyPairSigner();
  const otherGuardian = (await generateKeyPairSigner()).address;
  const major = await proposedDare({
    kind: 'major',
    stake: 123_456_789n,
    deposits: [],
    memo: 'DarePool dare 7',
    guardian: otherGuardian,
    winners: [
      { wallet: first, proof: 'first.mp4' },
      { wallet: second, proof: 'https://example.com/second' },
    ],
  });
  const executesAt = (await fetchVaultV2(rpc, programId, community))!.proposal!.executesAt;
  const hex = (text: string) => createHash('sha256').update(text).digest('hex');
  const wrongFile = path.join(dataDir, 'not-the-guardian.json');
  writeNewKeypairFile(wrongFile);
  const wrong = await readKeypairFile(wrongFile);
  const [closedPort] = [await getFreePortPair()];

  // Defaults from the environment: SOLANA_RPC_URL, GUARDIAN_WALLET, and the v2 program id found
  // in DATA_DIR/localnet.
  const [text, json, all, allText, nobodys, wrongKey, unreadable, unreachable] = await Promise.all([
    guardianScript(['list'], { GUARDIAN_WALLET: guardian.address }),
    guardianScript(['list', '--json'], { GUARDIAN_WALLET: guardian.address }),
    guardianScript(['list', '--all', '--json', '--program', programId, '--rpc', rpcUrl], {
      GUARDIAN_WALLET: guardian.address,
    }),
    guardianScript(['list', '--all', '--canceller', platform.address]),
    guardianScript(['list', '--all', '--canceller', otherGuardian]),
    guardianScript(['veto', '--vault', community, '--keypair', wrongFile]),
    guardianScript(['veto', '--vault', community, '--keypair', path.join(dataDir, 'missing.json')]),
    guardianScript([
      'veto',
      '--vault',
      community,
      '--keypair',
      guardianFile,
      '--rpc',
      `http://127.0.0.1:${closedPort}`,
    ]),
  ]);

  expect(text.code).toBe(0);
  expect(text.stdout).toContain(
    `Escrow v2 program ${programId} on ${rpcUrl}; vaults guarded by ${guardian.address}`,
  );
  expect(text.stdout).toContain(`Vault ${community}: dare 42\n  memo "DarePool dare 42"`);
  expect(text.stdout).not.toContain('666');
  expect(text.stdout).toMatch(
    new RegExp(
      `community dare, pays ${isoMinute(executesAt)} \\(in (59 min|1 h 0 min)\\); pot 0\\.351 SOL; judges 1 of 1: ${judge.address}`,
    ),
  );
  // Stake, deposit and the stranger's lamports: everything above the vault's rent.
  expect(text.stdout).toContain(`winner ${winner.address} gets 0.351 SOL; proof hash ${hex('walker1.mp4')}`);
  expect(text.stdout).toContain(`veto: npm run guardian -- veto --vault ${community} --keypair`);
  expect(text.stdout).not.toContain(major);
  expect(text.stdout).toContain('1 proposal in its window.');

  expect(json.code).toBe(0);
  const listed = JSON.parse(json.stdout);
  expect(listed).toMatchObject({ programId, guardian: guardian.address, pastWindow: 0 });
  expect(listed.proposals).toEqual([
    expect.objectContaining({
      vault: community,
      dare: {
        id: '42',
        title: null,
        memo: 'DarePool dare 42',
        seed: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
      kind: 'community',
      executesAt: new Date(Number(executesAt) * 1000).toISOString(),
      pot: '0.351',
      winners: [
        expect.objectContaining({
          wallet: winner.address,
          amount: '0.351',
          lamports: '351000000',
          proofHashes: [hex('walker1.mp4')],
        }),
      ],
      guardian: guardian.address,
      rentPayer: platform.address,
      vetoCount: 0,
    }),
  ]);

  expect(all.code).toBe(0);
  const every = JSON.parse(all.stdout).proposals as { vault: string; winners: unknown[] }[];
  expect(every.map((p) => p.vault).sort()).toEqual([community, major].sort());
  expect(every.find((p) => p.vault === major)).toMatchObject({
    dare: { id: '7' },
    kind: 'major',
    pot: '0.123456789',
    winners: [
      { wallet: first.address, amount: '0.086419753', proofHashes: [hex('first.mp4')] },
      { wallet: second.address, amount: '0.037037036', proofHashes: [hex('https://example.com/second')] },
    ],
  });

  expect(allText.stdout).toContain(`Vault ${major}: dare 7`);
  expect(allText.stdout).toContain(
    `winner ${first.address} gets 0.086419753 SOL (70%); proof hash ${hex('first.mp4')}`,
  );
  expect(allText.stdout).toContain(`winner ${second.address} gets 0.037037036 SOL (30%)`);
  expect(allText.stdout).toContain('2 proposals in their window.');
  // Only vaults whose rent that key paid (DarePool's: its fee payer's).
  expect(nobodys.stdout).toContain('No proposal in its window.');

  const oneLine = (result: { code: number; stdout: string; stderr: string }, message: string) => {
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    // One line, never a stack trace.
    expect(result.stderr).toBe(`guardian: ${message}\n`);
  };
  oneLine(
    wrongKey,
    `${wrong.address} is not the guardian of vault ${community} (its guardian is ${guardian.address})`,
  );
  expect(unreadable.stderr).toMatch(/^guardian: cannot read keypair .*missing\.json: ENOENT[^\n]*\n$/);
  expect(unreadable.code).toBe(1);
  oneLine(unreachable, `cannot reach the RPC at http://127.0.0.1:${closedPort}: ECONNREFUSED`);

  const vetoed = await guardianScript(['veto', '--vault', community, '--keypair', guardianFile]);
  expect(vetoed.stderr).toBe('');
  expect(vetoed.code).toBe(0);
  const signature = /^Vetoed the proposal on vault (\w+): (\w{80,90})\n$/.exec(vetoed.stdout);
  expect(signature?.[1]).toBe(community);
  const [status] = (await rpc.getSignatureStatuses([signature![2]! as never]).send()).value;
  expect(status).toMatchObject({ err: null });
  expect(await fetchVaultV2(rpc, programId, community)).toMatchObject({
    status: 'open',
    proposal: null,
    vetoCount: 1,
  });

  const [after, again] = await Promise.all([
    guardianScript(['list'], { GUARDIAN_WALLET: guardian.address }),
    guardianScript(['veto', '--vault', community, '--keypair', guardianFile]),
  ]);
  expect(after.code).toBe(0);
  expect(after.stdout).not.toContain(community);
  expect(after.stdout).toContain('No proposal in its window.');
  oneLine(again, `no proposal stands on vault ${community} (it is open): nothing to veto`);
}, 90_000);
