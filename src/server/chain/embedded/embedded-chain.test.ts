import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type Address,
  appendTransactionMessageInstruction,
  compileTransaction,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransaction,
} from '@solana/kit';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChainPort } from '../port';
import { describeTransactionError, transferWithReference } from '../transfers';
import { fetchParsedTransaction } from '../verify-deposit';
import { createEmbeddedChain } from '.';

const SOL = 1_000_000_000n;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function signedTransfer(
  chain: ChainPort,
  from: KeyPairSigner,
  to: Address,
  amount: bigint,
  reference?: Address,
  blockhash?: { blockhash: string; lastValidBlockHeight: bigint },
) {
  const lifetime = blockhash ?? (await chain.rpc.getLatestBlockhash().send()).value;
  const instruction = transferWithReference(
    from.address,
    to,
    amount,
    reference ?? (await generateKeyPairSigner()).address,
  );
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(from.address, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime as never, m),
    (m) => appendTransactionMessageInstruction(instruction, m),
  );
  // As in the app: the message is compiled unsigned, then the wallet's key signs it.
  const tx = await signTransaction([from.keyPair], compileTransaction(message));
  return { wire: getBase64EncodedWireTransaction(tx), signature: getSignatureFromTransaction(tx) };
}

const send = (chain: ChainPort, wire: string) =>
  chain.rpc.sendTransaction(wire as never, { encoding: 'base64' }).send();

describe('embedded chain over JSON-RPC', () => {
  it('airdrops, transfers with a reference, and answers getTransaction like a node', async () => {
    const chain = await createEmbeddedChain({ stateDir: null });
    const payer = await generateKeyPairSigner();
    const escrow = await generateKeyPairSigner();
    const reference = await generateKeyPairSigner();
    await chain.airdrop(payer.address, 2n * SOL);
    expect((await chain.rpc.getBalance(payer.address).send()).value).toBe(2n * SOL);

    const { wire, signature } = await signedTransfer(
      chain,
      payer,
      escrow.address,
      SOL / 4n,
      reference.address,
    );
    expect(await send(chain, wire)).toBe(signature);
    expect((await chain.rpc.getBalance(escrow.address).send()).value).toBe(SOL / 4n);
    expect((await chain.rpc.getBalance(payer.address).send()).value).toBe(2n * SOL - SOL / 4n - 5000n);

    const { value: statuses } = await chain.rpc.getSignatureStatuses([signature]).send();
    expect(statuses[0]).toMatchObject({ err: null, confirmationStatus: 'finalized' });

    const tx = await chain.rpc
      .getTransaction(signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 })
      .send();
    expect(tx?.meta?.fee).toBe(5000n);
    const view = await fetchParsedTransaction(chain.rpc, signature);
    expect(view).not.toBeNull();
    expect(view!.accountKeys.find((key) => key.pubkey === payer.address)).toMatchObject({
      signer: true,
      writable: true,
    });
    expect(view!.accountKeys.find((key) => key.pubkey === reference.address)).toMatchObject({
      signer: false,
      writable: false,
    });
    expect(view!.instructions).toContainEqual({
      programId: '11111111111111111111111111111111',
      parsed: {
        type: 'transfer',
        info: { source: payer.address, destination: escrow.address, lamports: SOL / 4n },
      },
    });
    const escrowIndex = view!.accountKeys.findIndex((key) => key.pubkey === escrow.address);
    expect(view!.postBalances[escrowIndex]! - view!.preBalances[escrowIndex]!).toBe(SOL / 4n);

    const found = await chain.rpc.getSignaturesForAddress(reference.address).send();
    expect(found.map((entry) => entry.signature)).toEqual([signature]);
    expect(found[0]!.slot).toBe(view!.slot);
  });

  it('refuses an unaffordable transfer at preflight with a readable reason, charging nothing', async () => {
    const chain = await createEmbeddedChain({ stateDir: null });
    const payer = await generateKeyPairSigner();
    const other = await generateKeyPairSigner();
    await chain.airdrop(payer.address, SOL);
    const { wire, signature } = await signedTransfer(chain, payer, other.address, 5n * SOL);
    const error = await send(chain, wire).catch((caught: unknown) => caught);
    expect(describeTransactionError(error)).toMatch(/^Insufficient funds/);
    expect((await chain.rpc.getBalance(payer.address).send()).value).toBe(SOL);
    expect((await chain.rpc.getSignatureStatuses([signature]).send()).value[0]).toBeNull();
  });

  it('refuses a transfer that leaves a new account below rent exemption', async () => {
    const chain = await createEmbeddedChain({ stateDir: null });
    const payer = await generateKeyPairSigner();
    const fresh = await generateKeyPairSigner();
    await chain.airdrop(payer.address, SOL);
    const { wire } = await signedTransfer(chain, payer, fresh.address, 1000n);
    const error = await send(chain, wire).catch((caught: unknown) => caught);
    expect(describeTransactionError(error)).toMatch(/rent-exempt/);
  });

  it('refuses a replayed transaction but lets identical airdrops and transfers both land', async () => {
    const chain = await createEmbeddedChain({ stateDir: null });
    const payer = await generateKeyPairSigner();
    const other = await generateKeyPairSigner();
    await chain.airdrop(payer.address, SOL);
    await chain.airdrop(payer.address, SOL);
    expect((await chain.rpc.getBalance(payer.address).send()).value).toBe(2n * SOL);
    const first = await signedTransfer(chain, payer, other.address, SOL / 10n);
    await send(chain, first.wire);
    const replay = await send(chain, first.wire).catch((caught: unknown) => caught);
    expect(describeTransactionError(replay)).toBe('This transaction was already sent');
    const second = await signedTransfer(chain, payer, other.address, SOL / 10n);
    expect(second.signature).not.toBe(first.signature);
    await send(chain, second.wire);
    expect((await chain.rpc.getBalance(other.address).send()).value).toBe(SOL / 5n);
  });

  it('keeps a fetched blockhash valid while other transactions land', async () => {
    const chain = await createEmbeddedChain({ stateDir: null });
    const payer = await generateKeyPairSigner();
    const other = await generateKeyPairSigner();
    await chain.airdrop(payer.address, 3n * SOL);
    const { value: early } = await chain.rpc.getLatestBlockhash().send();
    for (let i = 0; i < 20; i += 1) await chain.airdrop(other.address, SOL);
    const late = await signedTransfer(chain, payer, other.address, SOL, undefined, early);
    expect(await send(chain, late.wire)).toBe(late.signature);
  });

  it('keeps balances, slot, history and replay protection across a restart', async () => {
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-chain-'));
    dirs.push(stateDir);
    const payer = await generateKeyPairSigner();
    const other = await generateKeyPairSigner();
    const chain = await createEmbeddedChain({ stateDir });
    await chain.airdrop(payer.address, 2n * SOL);
    const transfer = await signedTransfer(chain, payer, other.address, SOL);
    await send(chain, transfer.wire);
    const slot = await chain.rpc.getSlot().send();
    await chain.close();

    const reopened = await createEmbeddedChain({ stateDir });
    expect((await reopened.rpc.getBalance(other.address).send()).value).toBe(SOL);
    expect(await reopened.rpc.getSlot().send()).toBeGreaterThanOrEqual(slot);
    expect((await fetchParsedTransaction(reopened.rpc, transfer.signature))?.slot).toBeLessThanOrEqual(slot);
    const replay = await send(reopened, transfer.wire).catch((caught: unknown) => caught);
    expect(describeTransactionError(replay)).toBe('This transaction was already sent');
    const next = await signedTransfer(reopened, payer, other.address, SOL / 2n);
    await send(reopened, next.wire);
    expect((await reopened.rpc.getBalance(other.address).send()).value).toBe(SOL + SOL / 2n);
  });
});
