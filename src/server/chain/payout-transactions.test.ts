/**
 * Reading back what a landed escrow transaction paid, on the embedded chain with the program
 * deployed: settles (community, major, stray lamports; sent by a test: the server signs none since
 * v1 was retired), the server's cancel + refunds, and a
 * payer's own 'Refund me' (the payer pays its fee: the amount read is still the receipt's). An
 * entrant pays its entry's rent and gets it back when the entry closes, in the same transaction
 * that pays it: what is read as paid is the pool or the receipt, never the rent.
 */
import {
  type Address,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  type KeyPairSigner,
  type Signature,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedEscrowChain, walletSigns } from '#test/support/chain/embedded-escrow-chain';
import { waitForConfirmation } from './confirmation';
import { type DareKind, ENTRY_SIZE, VAULT_SIZE } from './escrow-program/layout';
import { majorShares, readVaultTransaction } from './payout-transactions';

let t: EmbeddedEscrowChain;
let entryRent: bigint;
let vaultRent: bigint;
beforeAll(async () => {
  t = await EmbeddedEscrowChain.open();
  entryRent = await t.rpc.getMinimumBalanceForRentExemption(BigInt(ENTRY_SIZE)).send();
  vaultRent = await t.rpc.getMinimumBalanceForRentExemption(BigInt(VAULT_SIZE)).send();
});
afterAll(() => t.close());

async function dare(stake: bigint, kind: DareKind = 'community') {
  const creator = await t.wallet();
  return { vault: (await t.createDareByWallet(creator, stake, { kind })).vault, creator };
}

const deposit = (vault: Address, payer: KeyPairSigner, amount: bigint) =>
  t.depositByWallet(vault, payer, amount);

/** The entrant's wallet pays its entry: given exactly the rent and the fee, it is left with nothing more. */
const enter = (vault: Address, entrant: KeyPairSigner) => t.enterByWallet(vault, entrant);

const read = (signature: string, vault: Address) =>
  readVaultTransaction(t.rpc, signature, { programId: t.programId, vault, vaultRent });

describe('readVaultTransaction', () => {
  it('reads a community settle: the winner, and everything above rent including stray lamports', async () => {
    const { vault } = await dare(100_000_000n);
    const backer = await t.wallet();
    await deposit(vault, backer, 23_000_000n);
    const winner = await t.wallet(0n);
    await enter(vault, winner);
    await t.gift(backer, vault, 7n);
    // A settle the server no longer signs (v1 retired), read as the notice job reads any landed one.
    const signature = await t.settleV1(vault, [winner.address]);
    const effects = await read(signature, vault);
    expect(effects).toMatchObject({
      failed: false,
      settle: { winners: [winner.address] },
      cancelled: false,
      refunds: [],
    });
    expect(effects!.closedRecords).toHaveLength(3); // two receipts, one entry
    // The pot left the vault; the winner's entry rent came back to it too, but is no part of it.
    expect(effects!.vaultOut).toBe(123_000_007n);
    expect(await t.balance(winner.address)).toBe(123_000_007n + entryRent);
    // Another vault's transaction reads as nothing done to this one.
    const other = await dare(10_000_000n);
    expect(await read(signature, other.vault)).toMatchObject({ settle: null, refunds: [], vaultOut: 0n });
  });

  it('reads a major settle paying two wallets 70/30, the odd lamport to the first', async () => {
    const { vault } = await dare(100_000_003n, 'major');
    const [first, second] = [await t.wallet(0n), await t.wallet(0n)];
    await enter(vault, first);
    await enter(vault, second);
    const effects = await read(await t.settleV1(vault, [first.address, second.address]), vault);
    const [a, b] = majorShares(100_000_003n);
    expect([a, b]).toEqual([70_000_003n, 30_000_000n]);
    expect(effects!.settle).toEqual({ winners: [first.address, second.address] });
    expect(effects!.vaultOut).toBe(a + b);
    expect(majorShares(101n)).toEqual([71n, 30n]);
    expect(majorShares(99n)).toEqual([70n, 29n]);
  });

  it('reads the server cancel + refunds, and a payer refunding itself (its fee added back)', async () => {
    const { vault, creator } = await dare(50_000_000n);
    const backer = await t.wallet();
    await deposit(vault, backer, 20_000_000n);
    await deposit(vault, backer, 11_000_000n);
    // The creator entered too: its refund and its entry's rent come back in one transaction.
    await enter(vault, creator);
    const [cancel] = await t.appCancelAndRefunds(vault);
    // Only the cancel and the creator's refund: the backer refunds itself.
    const own = await t.appRefund(vault, backer.address);
    const { signature: cancelOnly } = await t.must([t.cancelInstruction(vault)]);
    expect(cancel).toBeDefined();
    expect((await read(cancelOnly, vault))!.cancelled).toBe(true);
    const before = await t.balance(backer.address);
    const ownSignature = await t.sendWire(await walletSigns(own.base64, backer));
    const ownEffects = await read(ownSignature, vault);
    expect(ownEffects!.refunds).toEqual([{ receipt: expect.any(String), payer: backer.address }]);
    expect(ownEffects!.vaultOut).toBe(31_000_000n);
    expect((await t.balance(backer.address)) - before).toBe(31_000_000n - 5_000n);
    const rest = await t.appCancelAndRefunds(vault);
    expect(rest).toHaveLength(1);
    const creatorBefore = await t.balance(creator.address);
    const effects = await read(await t.sendWire(rest[0]!.base64), vault);
    expect(effects!.refunds.map((r) => r.payer)).toEqual([creator.address]);
    // The last refund closed the vault: its rent went back to the rent payer, not to the payer.
    expect(effects!.vaultOut).toBe(50_000_000n);
    expect((await t.balance(creator.address)) - creatorBefore).toBe(50_000_000n + entryRent);
    expect(effects!.closedRecords).toHaveLength(1); // the entry
    expect(await t.exists(vault)).toBe(false);
  });

  it('reads a self-refund sent with transfers to the payer and into the vault as the receipt alone (decision 037)', async () => {
    const { vault } = await dare(50_000_000n);
    const payer = await t.wallet();
    await deposit(vault, payer, 20_000_000n);
    const other = await t.wallet(5n);
    await t.must([t.cancelInstruction(vault)]);
    const before = await t.balance(payer.address);
    // One transaction: 3 SOL from another wallet to the payer, the payer's refund, and 7 lamports
    // into the vault (which stay there: this is not the vault's last receipt).
    const { signature } = await t.must(
      [
        getTransferSolInstruction({ source: other, destination: payer.address, amount: 3_000_000_000n }),
        await t.refundInstruction(vault, payer.address),
        getTransferSolInstruction({ source: other, destination: vault, amount: 7n }),
      ],
      payer,
    );
    expect((await t.balance(payer.address)) - before).toBe(3_020_000_000n - 10_000n);
    const effects = await read(signature, vault);
    expect(effects).toMatchObject({ refunds: [{ payer: payer.address }], settle: null });
    expect(effects!.vaultOut).toBe(20_000_000n);
    expect(await t.balance(vault)).toBe(vaultRent + 50_000_000n + 7n);
  });

  it('reads a failed transaction as failed, and an unknown signature as null', async () => {
    const { vault } = await dare(10_000_000n);
    const impostor = await t.wallet();
    const signed = await t.signed([t.cancelInstruction(vault, impostor)], impostor);
    const signature = await t.rpc
      .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64', skipPreflight: true })
      .send();
    await waitForConfirmation(t.rpc, signature, { intervalMs: 5, timeoutMs: 10_000 }).catch(() => undefined);
    expect(await read(signature, vault)).toMatchObject({ failed: true, cancelled: false, vaultOut: 0n });
    // A well-formed signature the chain never saw (a malformed one is -32602, as on agave).
    const unknown = getBase58Decoder().decode(new Uint8Array(64).fill(7)) as Signature;
    expect(await read(unknown, vault)).toBeNull();
  });
});
