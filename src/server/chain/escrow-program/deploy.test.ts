/**
 * Deploys through the upgradeable loader: on the embedded chain over its JSON-RPC (as the server
 * and `npm run program:deploy` do), then checks the deployed bytes and the upgrade authority.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  appendTransactionMessageInstruction,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { LiteSVM } from 'litesvm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedChain } from '#server/chain/embedded';
import type { ChainPort } from '#server/chain/port';
import { getCreateVaultInstruction } from '#test/support/chain/v1-vaults';
import { linkSbf } from '../../../../program/linker/link';
import { fetchEntry, fetchReceipt, fetchVault } from './accounts';
import {
  checkDeployedProgram,
  DeployError,
  deployProgram,
  ensureProgramDeployed,
  liteSvmDeployTarget,
  makeProgramImmutable,
  rpcDeployTarget,
} from './deploy';
import { escrowErrorMessage } from './errors';
import { findEntryAddress, findReceiptAddress, findVaultAddress } from './pda';
import { readEscrowProgram, sha256Hex } from './program';

let chain: ChainPort;
beforeAll(async () => {
  chain = await createEmbeddedChain({ stateDir: null });
});
afterAll(async () => {
  await chain.close?.();
});

describe('deploying the escrow program', () => {
  it('deploys on the embedded chain through the loader, runs, and can be checked and made immutable', async () => {
    const payer = await generateKeyPairSigner();
    await chain.rpc.requestAirdrop(payer.address, lamports(10_000_000_000n)).send();
    const program = await generateKeyPairSigner();
    const bytes = readEscrowProgram();
    const target = rpcDeployTarget(chain.rpc, { pollMs: 1 });
    const result = await deployProgram({ target, payer, program, bytes });
    expect(result.sha256).toBe(sha256Hex(bytes));

    // The program answers: an unknown instruction is its own error 1, seen in preflight.
    const { value: blockhash } = await chain.rpc.getLatestBlockhash().send();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
      (m) =>
        appendTransactionMessageInstruction(
          { programAddress: program.address, data: new Uint8Array([42]) },
          m,
        ),
    );
    const wire = getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
    const sent = chain.rpc.sendTransaction(wire, { encoding: 'base64' }).send();
    await expect(sent).rejects.toMatchObject({
      context: {
        logs: expect.arrayContaining([expect.stringContaining('failed: custom program error: 0x1')]),
      },
    });
    expect(escrowErrorMessage(1)).toBe('Unknown escrow instruction');

    // Accounts it creates read back through the RPC, checked by owner and layout.
    const dareId = new Uint8Array(32).fill(9);
    const now = BigInt(Math.floor(Date.now() / 1000));
    const create = await getCreateVaultInstruction({
      programId: program.address,
      creator: payer,
      rentPayer: payer,
      dareId,
      moderator: payer.address,
      deadline: now + 3600n,
      refundAfter: now + 7200n,
      amount: 20_000_000n,
      kind: 'major',
    });
    const { value: latest } = await chain.rpc.getLatestBlockhash().send();
    const createMessage = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
      (m) => appendTransactionMessageInstruction(create, m),
    );
    await rpcDeployTarget(chain.rpc, { pollMs: 1 }).send(
      await signTransactionMessageWithSigners(createMessage),
    );
    const vault = (await findVaultAddress(program.address, dareId)).address;
    expect(await fetchVault(chain.rpc, program.address, vault)).toMatchObject({
      kind: 'major',
      status: 'open',
      moderator: payer.address,
      total: 20_000_000n,
      deadline: now + 3600n,
    });
    const receipt = (await findReceiptAddress(program.address, vault, payer.address)).address;
    expect(await fetchReceipt(chain.rpc, program.address, receipt)).toMatchObject({
      payer: payer.address,
      amount: 20_000_000n,
    });
    expect(await fetchVault(chain.rpc, program.address, receipt)).toBeNull(); // a receipt is not a vault
    expect(await fetchVault(chain.rpc, payer.address, vault)).toBeNull(); // not owned by that program
    expect(
      await fetchEntry(
        chain.rpc,
        program.address,
        (await findEntryAddress(program.address, vault, payer.address)).address,
      ),
    ).toBeNull();

    expect(await checkDeployedProgram(chain.rpc, program.address, bytes)).toEqual({
      deployedSha256: sha256Hex(bytes),
      expectedSha256: sha256Hex(bytes),
      same: true,
      upgradeAuthority: payer.address,
    });
    const other = new Uint8Array(bytes);
    other[other.length - 1] = other[other.length - 1]! ^ 1;
    expect((await checkDeployedProgram(chain.rpc, program.address, other)).same).toBe(false);

    await makeProgramImmutable({ target, authority: payer, programId: program.address });
    expect((await checkDeployedProgram(chain.rpc, program.address, bytes)).upgradeAuthority).toBeNull();
  });

  it('deploys immutable in one step with final', async () => {
    const svm = new LiteSVM();
    const payer = await generateKeyPairSigner();
    svm.airdrop(payer.address, lamports(10_000_000_000n));
    const program = await generateKeyPairSigner();
    const result = await deployProgram({
      target: liteSvmDeployTarget(svm),
      payer,
      program,
      bytes: readEscrowProgram(),
      final: true,
    });
    expect(result.immutable).toBe(true);
    const programData = svm.getAccount(result.programDataAddress);
    expect(programData.exists && programData.data[12]).toBe(0); // no upgrade authority
  });

  it('is refused by the loader when it calls a syscall the runtime does not have', async () => {
    // Our linker refuses unknown names, so rename one after linking: the loader must catch it too.
    const fixture = new Uint8Array(
      readFileSync(path.join(import.meta.dirname, '../../../../program/linker/fixtures/ok.o')),
    );
    const elf = linkSbf(fixture);
    const at = Buffer.from(elf).indexOf('sol_log_64_');
    elf.set(new TextEncoder().encode('sol_lol_64_'), at);
    const svm = new LiteSVM();
    const payer = await generateKeyPairSigner();
    svm.airdrop(payer.address, lamports(10_000_000_000n));
    const deploy = deployProgram({
      target: liteSvmDeployTarget(svm),
      payer,
      program: await generateKeyPairSigner(),
      bytes: elf,
    });
    await expect(deploy).rejects.toThrow(DeployError);
    await expect(deploy).rejects.toThrow(/Unresolved symbol \(sol_lol_64_\)|sol_lol_64_/);
  });

  it('keeps one program id with the chain state: deployed once, unchanged after a restart, upgraded in place when rebuilt', async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'darepool-escrow-deploy-'));
    try {
      const keypairFile = path.join(stateDir, 'escrow-program-keypair.json');
      const authority = await generateKeyPairSigner();
      const bytes = readEscrowProgram();
      let local = await createEmbeddedChain({ stateDir: path.join(stateDir, 'chain') });
      await local.rpc.requestAirdrop(authority.address, lamports(10_000_000_000n)).send();
      const first = await ensureProgramDeployed({ rpc: local.rpc, authority, keypairFile, bytes });
      expect(first.action).toBe('deployed');
      await local.close();

      local = await createEmbeddedChain({ stateDir: path.join(stateDir, 'chain') });
      expect(await ensureProgramDeployed({ rpc: local.rpc, authority, keypairFile, bytes })).toEqual({
        programId: first.programId,
        action: 'unchanged',
      });
      const rebuilt = linkSbf(
        new Uint8Array(
          readFileSync(path.join(import.meta.dirname, '../../../../program/linker/fixtures/ok.o')),
        ),
      );
      expect(await ensureProgramDeployed({ rpc: local.rpc, authority, keypairFile, bytes: rebuilt })).toEqual(
        {
          programId: first.programId,
          action: 'upgraded',
        },
      );
      expect((await checkDeployedProgram(local.rpc, first.programId, rebuilt)).same).toBe(true);
      await local.close();
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
