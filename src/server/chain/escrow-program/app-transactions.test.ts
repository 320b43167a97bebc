/**
 * The escrow transactions the server builds, on the embedded chain with the program deployed:
 * wallets sign what the server hands them (as a wallet does: its signature over the message
 * bytes), and every lamport is accounted for — stakes, fees and rent.
 */
import { createHash } from 'node:crypto';
import {
  type Address,
  getAddressDecoder,
  getAddressEncoder,
  getBase64Encoder,
  getTransactionDecoder,
  isOffCurveAddress,
  isSolanaError,
  type KeyPairSigner,
  type Signature,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
} from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EmbeddedEscrowChain,
  SIGNATURE_FEE,
  SOL,
  walletSigns,
} from '#test/support/chain/embedded-escrow-chain';
import type { VaultTransaction } from './app-transactions';
import { type DareKind, ENTRY_SIZE, MIN_DEPOSIT_LAMPORTS, RECEIPT_SIZE, VAULT_SIZE } from './layout';
import { findReceiptAddress } from './pda';
import { listVaultRecords } from './vault-records';

let t: EmbeddedEscrowChain;
let rent: { vault: bigint; receipt: bigint; entry: bigint };
beforeAll(async () => {
  t = await EmbeddedEscrowChain.open();
  const of = (size: number) => t.rpc.getMinimumBalanceForRentExemption(BigInt(size)).send();
  rent = { vault: await of(VAULT_SIZE), receipt: await of(RECEIPT_SIZE), entry: await of(ENTRY_SIZE) };
});
afterAll(() => t.close());

/** What the platform fee payer paid in fees for the transactions it paid for. */
const platformFees: Signature[] = [];
async function platformFeesSoFar(): Promise<bigint> {
  let total = 0n;
  for (const signature of platformFees) total += (await t.costOf(signature)).fee;
  return total;
}

const createDare = (creator: KeyPairSigner, stake: bigint, kind: DareKind = 'community') =>
  t.createDareByWallet(creator, stake, { kind });

const deposit = (vault: Address, payer: KeyPairSigner, amount: bigint) =>
  t.depositByWallet(vault, payer, amount);

/**
 * The entrant's wallet, given exactly the entry's rent and one fee, pays its entry and is the
 * only signer: it is left with nothing, and nothing of the platform moves.
 */
async function enter(vault: Address, entrant: KeyPairSigner) {
  const platformBefore = await t.balance(t.platform.address);
  const { built, signature, paid } = await t.enterByWallet(vault, entrant);
  expect(Object.keys(signersOf(built.base64))).toEqual([entrant.address]);
  expect((await t.costOf(signature)).fee).toBe(SIGNATURE_FEE);
  expect(paid).toBe(rent.entry + SIGNATURE_FEE);
  expect(await t.balance(t.platform.address)).toBe(platformBefore);
  return built;
}

async function sendAll(transactions: VaultTransaction[]): Promise<Signature[]> {
  const signatures: Signature[] = [];
  for (const transaction of transactions) {
    const signature = await t.sendWire(transaction.base64);
    expect(signature).toBe(transaction.signature); // known, and recordable, before sending
    signatures.push(signature);
  }
  platformFees.push(...signatures);
  return signatures;
}

async function expectAllClosed(vault: Address) {
  expect(await t.exists(vault)).toBe(false);
  expect(await listVaultRecords(t.rpc, t.programId, vault)).toEqual({ receipts: [], entries: [] });
}

function signersOf(base64: string) {
  return getTransactionDecoder().decode(getBase64Encoder().encode(base64)).signatures;
}

describe('app transactions: a community dare from stake to payout', () => {
  it('create, a second payer, two entrants, a settle and the app’s closes: the winner gets exactly the pool and the platform every rent lamport', async () => {
    const platformBefore = await t.balance(t.platform.address);
    const feesBefore = await platformFeesSoFar();
    const creator = await t.wallet();
    const stake = 123_456_789n;

    // The server signs as rent payer; the creator's slot (fee payer) waits for the wallet.
    const built = await t.buildCreateVault(creator.address, stake);
    const slots = signersOf(built.base64);
    expect(Object.keys(slots)).toEqual([creator.address, t.platform.address]);
    expect(slots[creator.address]).toBeNull();
    expect(slots[t.platform.address]).not.toBeNull();
    const unsigned = await t.rpc
      .sendTransaction(built.base64, { encoding: 'base64' })
      .send()
      .catch((error: unknown) => error);
    expect(
      isSolanaError(
        unsigned,
        SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
      ),
    ).toBe(true);

    const creatorBefore = await t.balance(creator.address);
    const created = await t.sendWire(await walletSigns(built.base64, creator));
    // The fee payer pays every signature: the creator's and the rent payer's, 2 x 5000.
    expect((await t.costOf(created)).fee).toBe(2n * SIGNATURE_FEE);
    expect(await t.balance(creator.address)).toBe(creatorBefore - stake - 2n * SIGNATURE_FEE);
    expect(await t.balance(t.platform.address)).toBe(platformBefore - rent.vault - rent.receipt);
    expect(await t.balance(built.vault)).toBe(rent.vault + stake);

    const payer = await t.wallet();
    const payerBefore = await t.balance(payer.address);
    const first = await deposit(built.vault, payer, 2n * SOL + 1n);
    expect(first.built.newReceipt).toBe(true);
    expect((await t.costOf(first.signature)).fee).toBe(2n * SIGNATURE_FEE);
    const second = await deposit(built.vault, payer, MIN_DEPOSIT_LAMPORTS);
    // The receipt exists: the platform neither signs nor pays, the payer pays one signature.
    expect(second.built.newReceipt).toBe(false);
    expect(Object.keys(signersOf(second.built.base64))).toEqual([payer.address]);
    expect((await t.costOf(second.signature)).fee).toBe(SIGNATURE_FEE);
    expect(await t.balance(payer.address)).toBe(
      payerBefore - 2n * SOL - 1n - MIN_DEPOSIT_LAMPORTS - 3n * SIGNATURE_FEE,
    );

    // Entrants pay their own entry (fee and rent), here exactly what they held.
    const [winner, loser] = [await t.wallet(0n), await t.wallet(0n)];
    await enter(built.vault, winner);
    await enter(built.vault, loser);
    expect(await t.balance(winner.address)).toBe(0n);

    const records = await listVaultRecords(t.rpc, t.programId, built.vault);
    expect(records.receipts.map((r) => [r.payer, r.amount, r.rentPayer, r.lamports]).sort()).toEqual(
      [
        [creator.address, stake, t.platform.address, rent.receipt],
        [payer.address, 2n * SOL + 1n + MIN_DEPOSIT_LAMPORTS, t.platform.address, rent.receipt],
      ].sort(),
    );
    expect(records.entries.map((e) => e.entrant).sort()).toEqual([winner.address, loser.address].sort());

    const pool = stake + 2n * SOL + 1n + MIN_DEPOSIT_LAMPORTS;
    // A vault settled before v1 was retired (the server signs no settle now): the app closes its records.
    platformFees.push(await t.settleV1(built.vault, [winner.address], { closes: false }));
    const closes = await t.appRecordCloses(built.vault);
    expect(closes).toHaveLength(1);
    expect(closes[0]!.closes.map((c) => c.kind)).toEqual([
      'closeReceipt',
      'closeReceipt',
      'closeEntry',
      'closeEntry',
    ]);
    await sendAll(closes);
    // The pool, and the entry's rent back to the entrant who paid it; the loser gets its rent.
    expect(await t.balance(winner.address)).toBe(pool + rent.entry);
    expect(await t.balance(loser.address)).toBe(rent.entry);
    await expectAllClosed(built.vault);
    const fees = (await platformFeesSoFar()) - feesBefore;
    // The settle (moderator + fee payer) and the closes (fee payer); the entries were the entrants'.
    expect(fees).toBe(3n * SIGNATURE_FEE);

    expect(await t.balance(t.platform.address)).toBe(platformBefore - fees);
  });
});

describe('app transactions: a major dare', () => {
  it('pays 70/30 in exact lamports, the odd lamports to the first share', async () => {
    const { vault } = await createDare(await t.wallet(), 700_000_000n, 'major');
    await deposit(vault, await t.wallet(), 300_000_007n);
    const [first, second] = [await t.wallet(0n), await t.wallet(0n)];
    await enter(vault, first);
    await enter(vault, second);
    platformFees.push(await t.settleV1(vault, [first.address, second.address]));
    const pot = 1_000_000_007n;
    expect(await t.balance(second.address)).toBe(300_000_002n + rent.entry); // floor(30%), and its rent back
    expect(await t.balance(first.address)).toBe(pot - 300_000_002n + rent.entry);
    await expectAllClosed(vault);
  });
});

/** A dare with a creator and `payers - 1` more payers of 0.01 SOL, and `entrants` entries. */
async function crowdedDare(payers: number, entrants: number) {
  const creator = await t.wallet();
  const { vault } = await createDare(creator, MIN_DEPOSIT_LAMPORTS);
  const wallets = [creator];
  for (let i = 1; i < payers; i++) {
    const payer = await t.wallet(1n);
    await deposit(vault, payer, MIN_DEPOSIT_LAMPORTS);
    wallets.push(payer);
  }
  const entered: KeyPairSigner[] = [];
  for (let i = 0; i < entrants; i++) {
    const entrant = await t.wallet(0n);
    await enter(vault, entrant);
    entered.push(entrant);
  }
  return { vault, payers: wallets, entrants: entered };
}

describe('app transactions: cancel and refunds', () => {
  it('cancel refunds every payer exactly what they put in, and the platform its rent', async () => {
    const platformBefore = await t.balance(t.platform.address);
    const feesBefore = await platformFeesSoFar();
    const creator = await t.wallet();
    const { vault } = await createDare(creator, 250_000_001n);
    const payer = await t.wallet();
    await deposit(vault, payer, 40_000_003n);
    await enter(vault, await t.wallet(0n));
    const [creatorBefore, payerBefore] = [await t.balance(creator.address), await t.balance(payer.address)];

    const transactions = await t.appCancelAndRefunds(vault);
    expect(transactions).toHaveLength(1);
    expect(transactions[0]!.closes).toEqual([
      expect.objectContaining({ kind: 'refund' }),
      expect.objectContaining({ kind: 'refund' }),
      expect.objectContaining({ kind: 'closeEntry' }),
    ]);
    await sendAll(transactions);
    expect(await t.balance(creator.address)).toBe(creatorBefore + 250_000_001n);
    expect(await t.balance(payer.address)).toBe(payerBefore + 40_000_003n);
    await expectAllClosed(vault);
    expect(await t.balance(t.platform.address)).toBe(
      platformBefore - ((await platformFeesSoFar()) - feesBefore),
    );
  });

  it("'Refund me': a payer's own wallet refunds its receipt once the vault is refunding; anyone closes the rest", async () => {
    const creator = await t.wallet();
    const { vault } = await createDare(creator, SOL);
    const payer = await t.wallet();
    await deposit(vault, payer, 70_000_000n);
    await enter(vault, await t.wallet(0n));
    platformFees.push((await t.must([t.cancelInstruction(vault)])).signature);

    const payerBefore = await t.balance(payer.address);
    const built = await t.appRefund(vault, payer.address);
    expect(built.amount).toBe(70_000_000n);
    expect(Object.keys(signersOf(built.base64))).toEqual([payer.address]);
    const refunded = await t.sendWire(await walletSigns(built.base64, payer));
    expect((await t.costOf(refunded)).fee).toBe(SIGNATURE_FEE);
    expect(await t.balance(payer.address)).toBe(payerBefore + 70_000_000n - SIGNATURE_FEE);
    await expect(t.appRefund(vault, payer.address)).rejects.toThrow('nothing to refund');

    // A stranger pays the fees of the rest; no DarePool key signs.
    const stranger = await t.wallet();
    const creatorBefore = await t.balance(creator.address);
    const rest = await t.appRecordCloses(vault, stranger);
    for (const transaction of rest) await t.sendWire(transaction.base64);
    expect(await t.balance(creator.address)).toBe(creatorBefore + SOL);
    await expectAllClosed(vault);
  });

  it("'Refund me' works on an open vault past refund_after, and is refused after a payout", async () => {
    const { vault } = await createDare(await t.wallet(), SOL);
    const payer = await t.wallet();
    await deposit(vault, payer, 50_000_000n);
    await t.tick(7200n);
    const payerBefore = await t.balance(payer.address);
    const built = await t.appRefund(vault, payer.address);
    await t.sendWire(await walletSigns(built.base64, payer));
    expect(await t.balance(payer.address)).toBe(payerBefore + 50_000_000n - SIGNATURE_FEE);

    const paid = await createDare(await t.wallet(), SOL);
    const winner = await t.wallet(0n);
    await enter(paid.vault, winner);
    // settle alone: the vault stays, settled, until its records close.
    platformFees.push((await t.must([await t.settleInstruction(paid.vault, [winner.address])])).signature);
    await expect(t.appRefund(paid.vault, winner.address)).rejects.toThrow('paid out');
    const closes = await t.appRecordCloses(paid.vault);
    expect(closes.flatMap((tx) => tx.closes.map((c) => c.kind))).toEqual(['closeReceipt', 'closeEntry']);
    await sendAll(closes);
    expect(await t.balance(winner.address)).toBe(SOL + rent.entry);
    await expectAllClosed(paid.vault);
  });
});

describe('app transactions: a dare with many records', () => {
  it('closes 30 receipts and 3 entries of a settled vault over several transactions', async () => {
    const platformBefore = await t.balance(t.platform.address);
    const feesBefore = await platformFeesSoFar();
    const dare = await crowdedDare(30, 3);
    const winner = dare.entrants[0]!;
    // Settled before v1 was retired (the server signs no settle now); the closes are the app's.
    platformFees.push(await t.settleV1(dare.vault, [winner.address], { closes: false }));
    const transactions = await t.appRecordCloses(dare.vault);
    expect(transactions.length).toBeGreaterThan(1);
    expect(transactions.flatMap((tx) => tx.closes)).toHaveLength(33);
    for (const transaction of transactions)
      expect(getBase64Encoder().encode(transaction.base64).length).toBeLessThanOrEqual(1232);
    // No key of the moderator in any of them: closes need only the fee payer.
    for (const transaction of transactions)
      expect(Object.keys(signersOf(transaction.base64))).toEqual([t.platform.address]);
    await sendAll(transactions);
    expect(await t.balance(winner.address)).toBe(30n * MIN_DEPOSIT_LAMPORTS + rent.entry);
    await expectAllClosed(dare.vault);
    expect(await t.balance(t.platform.address)).toBe(
      platformBefore - ((await platformFeesSoFar()) - feesBefore),
    );
  }, 60_000);

  it('cancels and refunds 30 payers over several transactions', async () => {
    const dare = await crowdedDare(30, 2);
    const before = await Promise.all(dare.payers.map((p) => t.balance(p.address)));
    const transactions = await t.appCancelAndRefunds(dare.vault);
    expect(transactions.length).toBeGreaterThan(2);
    await sendAll(transactions);
    const after = await Promise.all(dare.payers.map((p) => t.balance(p.address)));
    expect(after).toEqual(before.map((b) => b + MIN_DEPOSIT_LAMPORTS));
    await expectAllClosed(dare.vault);
  }, 60_000);
});

/** A valid receipt address below the canonical bump: the program accepts it (docs/program.md). */
async function nonCanonicalReceipt(vault: Address, payer: Address) {
  const bytes = (address: Address) => new Uint8Array(getAddressEncoder().encode(address));
  const canonical = await findReceiptAddress(t.programId, vault, payer);
  for (let bump = canonical.bump - 1; bump >= 0; bump--) {
    const hash = createHash('sha256')
      .update('receipt')
      .update(bytes(vault))
      .update(bytes(payer))
      .update(Uint8Array.of(bump))
      .update(bytes(t.programId))
      .update('ProgramDerivedAddress')
      .digest();
    const address = getAddressDecoder().decode(hash);
    if (isOffCurveAddress(address)) return { address, bump };
  }
  throw new Error('no other bump');
}

describe('app transactions: records another client made', () => {
  it('settles and closes a receipt made at a non-canonical bump, named by its address on chain', async () => {
    const { vault } = await createDare(await t.wallet(), SOL);
    const other = await t.wallet();
    const deposit = await t.depositInstruction(vault, other, MIN_DEPOSIT_LAMPORTS, other);
    const odd = await nonCanonicalReceipt(vault, other.address);
    const data = new Uint8Array(deposit.data!);
    data[9] = odd.bump;
    const accounts = [...deposit.accounts!];
    accounts[3] = { ...accounts[3]!, address: odd.address };
    await t.must([{ ...deposit, accounts, data }], other);
    const records = await listVaultRecords(t.rpc, t.programId, vault);
    expect(records.receipts.map((r) => r.address)).toContain(odd.address);

    const winner = await t.wallet(0n);
    await enter(vault, winner);
    platformFees.push(await t.settleV1(vault, [winner.address], { closes: false }));
    await sendAll(await t.appRecordCloses(vault));
    expect(await t.balance(winner.address)).toBe(SOL + MIN_DEPOSIT_LAMPORTS + rent.entry);
    await expectAllClosed(vault);
  });
});
