import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  address,
  airdropFactory,
  appendTransactionMessageInstruction,
  assertIsTransactionWithBlockhashLifetime,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getSignatureFromTransaction,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterAll, describe, expect, it } from 'vitest';
import { V1_PROGRAM_KEYPAIR_FILE } from '#server/chain/escrow-program/app-program';
import { checkDeployedProgram } from '#server/chain/escrow-program/deploy';
import { readKeypairFile, writeNewKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { readEscrowProgram } from '#server/chain/escrow-program/program';
import { readEscrowProgramV2 } from '#server/chain/escrow-program/v2/program';
import { REPO_ROOT } from '../e2e/fixtures/paths';
import { getFreePortPair } from '../e2e/fixtures/server';

/**
 * `npm run localnet`: the embedded chain in a process of its own, served like
 * solana-test-validator, seen through @solana/kit's own HTTP and WebSocket clients.
 */
const SOL = 1_000_000_000n;
const ledger = mkdtempSync(path.join(os.tmpdir(), 'darepool-localnet-'));
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(ledger, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function localnet(args: string[]): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/localnet.ts', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return { child, output: () => output, exited };
}

/** Started and serving: resolves once it printed its RPC address. */
async function serving(started: Started): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!/Localnet PubSub/.test(started.output())) {
    if (started.child.exitCode !== null) throw new Error(`localnet exited: ${started.output()}`);
    if (Date.now() > deadline) throw new Error(`localnet did not start: ${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('npm run localnet', () => {
  let port: number;

  it('serves JSON-RPC and PubSub on the next port: airdrop, send and confirm by subscription', async () => {
    port = await getFreePortPair();
    const chain = localnet(['--rpc-port', String(port), '--ledger', ledger]);
    await serving(chain);
    expect(chain.output()).toContain(`Localnet JSON-RPC: http://127.0.0.1:${port}`);
    expect(chain.output()).toContain(`Localnet PubSub:   ws://127.0.0.1:${port + 1}`);

    const rpc = createSolanaRpc(`http://127.0.0.1:${port}`);
    // The committed escrow program v2 runs at the printed id, which a restart keeps; a new ledger
    // runs no v1 (decision 081).
    const programId = /Escrow program v2: +(\w+) \(ESCROW_PROGRAM_V2_ID\)/.exec(chain.output())?.[1];
    if (!programId) throw new Error(`no program id printed: ${chain.output()}`);
    const deployed = await checkDeployedProgram(rpc, address(programId), readEscrowProgramV2());
    expect(deployed.same).toBe(true);
    expect(chain.output()).toContain(
      'Escrow program v1: none on this ledger (leave ESCROW_PROGRAM_ID unset)',
    );
    expect(existsSync(path.join(ledger, V1_PROGRAM_KEYPAIR_FILE))).toBe(false);
    // Upgradeable (rebuilt in place): its authority is printed for ESCROW_PROGRAM_UPGRADE_AUTHORITY.
    expect(chain.output()).toContain(
      `Upgrade authority: ${deployed.upgradeAuthority} (ESCROW_PROGRAM_UPGRADE_AUTHORITY)`,
    );
    const rpcSubscriptions = createSolanaRpcSubscriptions(`ws://127.0.0.1:${port + 1}`);
    const payer = await generateKeyPairSigner();
    // requestAirdrop, confirmed through signatureSubscribe.
    await airdropFactory({ rpc, rpcSubscriptions })({
      recipientAddress: payer.address,
      lamports: lamports(2n * SOL),
      commitment: 'confirmed',
    });
    const recipient = (await generateKeyPairSigner()).address;
    const { value: blockhash } = await rpc.getLatestBlockhash().send();
    const transfer = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(payer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
        (m) =>
          appendTransactionMessageInstruction(
            getTransferSolInstruction({ source: payer, destination: recipient, amount: SOL / 2n }),
            m,
          ),
      ),
    );
    assertIsTransactionWithBlockhashLifetime(transfer);
    await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })(transfer, { commitment: 'confirmed' });
    expect((await rpc.getBalance(recipient).send()).value).toBe(SOL / 2n);
    const [status] = (await rpc.getSignatureStatuses([getSignatureFromTransaction(transfer)]).send()).value;
    expect(status).toMatchObject({ err: null, confirmationStatus: expect.any(String) });

    // One process per ledger folder.
    const second = localnet(['--rpc-port', '0', '--ledger', ledger]);
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/^localnet: The data folder .* is in use by process \d+/);

    // SIGTERM saves the chain and exits 0; the next start on the folder has it back.
    chain.child.kill('SIGTERM');
    expect(await chain.exited).toBe(0);
    const again = localnet(['--rpc-port', String(port), '--ledger', ledger]);
    await serving(again);
    expect((await rpc.getBalance(recipient).send()).value).toBe(SOL / 2n);
    expect(again.output()).toContain(`Escrow program v2: ${programId} (ESCROW_PROGRAM_V2_ID)`);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);

    // --reset starts from an empty chain.
    const fresh = localnet(['--rpc-port', String(port), '--ledger', ledger, '--reset']);
    await serving(fresh);
    expect((await rpc.getBalance(recipient).send()).value).toBe(0n);
    fresh.child.kill('SIGTERM');
    expect(await fresh.exited).toBe(0);
  });

  it('keeps running v1 on a ledger that keeps its id, for the v1 vaults there', async () => {
    const kept = mkdtempSync(path.join(os.tmpdir(), 'darepool-localnet-v1-'));
    try {
      const keypairFile = path.join(kept, V1_PROGRAM_KEYPAIR_FILE);
      writeNewKeypairFile(keypairFile);
      const v1Id = (await readKeypairFile(keypairFile)).address;
      const chain = localnet(['--rpc-port', '0', '--ledger', kept]);
      await serving(chain);
      expect(chain.output()).toContain(`Escrow program:    ${v1Id} (ESCROW_PROGRAM_ID)`);
      const url = /JSON-RPC: (http:\/\/[\d.:]+)/.exec(chain.output())![1]!;
      const deployed = await checkDeployedProgram(createSolanaRpc(url), v1Id, readEscrowProgram());
      expect(deployed.same).toBe(true);
      chain.child.kill('SIGTERM');
      expect(await chain.exited).toBe(0);
    } finally {
      rmSync(kept, { recursive: true, force: true });
    }
  });

  it('refuses a port that is taken, saying which', async () => {
    const holder = localnet(['--rpc-port', '0', '--memory']);
    await serving(holder);
    const taken = Number(/JSON-RPC: http:\/\/127\.0\.0\.1:(\d+)/.exec(holder.output())![1]);
    const second = localnet(['--rpc-port', String(taken), '--memory']);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `localnet: cannot serve the chain: 127.0.0.1:${taken} is already in use`,
    );
    holder.child.kill('SIGTERM');
    expect(await holder.exited).toBe(0);
  });

  it("serves a server's own chain folder (DATA_DIR/chain) only while no server holds its data folder", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-localnet-datadir-'));
    try {
      const chainDir = path.join(dataDir, 'chain');
      mkdirSync(chainDir);
      // A running server's lock: this test process is alive.
      writeFileSync(path.join(dataDir, '.lock'), String(process.pid));
      const refused = localnet(['--rpc-port', '0', '--ledger', chainDir]);
      expect(await refused.exited).toBe(1);
      expect(refused.output().trim()).toBe(
        `localnet: The data folder ${dataDir} is in use by process ${process.pid} (a running DarePool?); stop it first`,
      );
      // Stopped: served, and the data folder is held meanwhile (a server start would be refused).
      rmSync(path.join(dataDir, '.lock'));
      const served = localnet(['--rpc-port', '0', '--ledger', chainDir]);
      await serving(served);
      expect(existsSync(path.join(dataDir, '.lock'))).toBe(true);
      served.child.kill('SIGTERM');
      expect(await served.exited).toBe(0);
      expect(existsSync(path.join(dataDir, '.lock'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
