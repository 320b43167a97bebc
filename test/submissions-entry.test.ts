/**
 * Entering a dare on chain before a proof is recorded (issue 16): the enter transaction, its relay
 * through submit, and what an attacker could try with it. The entrant's wallet pays its entry
 * (decision 034): the platform fee payer signs nothing and pays nothing.
 */
import {
  address,
  type Base64EncodedWireTransaction,
  createSignerFromKeyPair,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  getTransactionEncoder,
  type SignatureBytes,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSION_MESSAGES } from '#contract/submissions';
import { waitForConfirmation } from '#server/chain/confirmation';
import { getCancelInstruction } from '#server/chain/escrow-program/instructions';
import { findEntryAddress } from '#server/chain/escrow-program/pda';
import { partiallySigned } from '#server/chain/escrow-program/wire-transactions';
import { createDare, createUser } from '#server/db/factories';
import { dareSubmissions, dares, preparedTransactions } from '#server/db/schema';
import { chainNow, warpChain } from './helpers/chain-clock';
import {
  dareVault,
  ENTRY_COST,
  ENTRY_RENT,
  type Entrant,
  ensureVault,
  entryOnChain,
  fundEntries,
  postSubmit,
  proofUrlFor,
  requestEntry,
  signedEntry,
  walletSigns,
} from './helpers/entries';
import { createFundedDare, lamportsOf, newActor } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  http,
  actors: { owner, alice, bob },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  actors: { owner: {}, alice: { sol: '1' }, bob: { sol: '1' } },
});

// The video the helpers' entries are signed for: a v2 entry holds its proof's hash, and submit
// takes only the video its entry was signed for.
const proof = (user: Entrant) => ({ videoUrl: proofUrlFor(user), description: 'Entered' });

let dare: { id: number };
let vault: string;
const feePayer = async () => (await ctx.escrowKeys.feePayer()).address;

beforeAll(async () => {
  dare = await createFundedDare(ctx, owner, '0.1');
  vault = (await dareVault(ctx, dare.id))!;
});

/** A dare row with a vault made here, for chain states the API cannot produce (no ledger lines). */
async function dareWithOwnVault(options: { deadline?: Date } = {}) {
  const row = await createDare(ctx.database.db, { creatorId: owner.id, escrowWallet: null });
  return { id: row.id, vault: await ensureVault(ctx, owner, row.id, options) };
}

const signatureOf = (base64: string) =>
  getTransactionDecoder().decode(Buffer.from(base64, 'base64')).signatures;

describe('POST /api/dares/{id}/enter-transaction', () => {
  it('hands a signed-in wallet its enter transaction: the wallet pays, and is its only signer', async () => {
    const res = await requestEntry(ctx, alice, dare.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { transaction: string; entry: string; lastValidBlockHeight: string };
    const signatures = signatureOf(body.transaction);
    // One slot, the wallet's, empty: nothing of DarePool signs what a client may broadcast.
    expect(Object.keys(signatures)).toEqual([alice.wallet.address]);
    expect(signatures[address(alice.wallet.address)]).toBeNull();
    // Every new dare's vault is one of program v2, and so is its entry.
    const entry = await findEntryAddress(
      ctx.escrowProgramV2Id,
      address(vault),
      address(alice.wallet.address),
    );
    expect(body.entry).toBe(entry.address);
    expect(BigInt(body.lastValidBlockHeight)).toBeGreaterThan(0n);
    // Asked again while it can land, the same transaction comes back: never two live entries.
    const again = await requestEntry(ctx, alice, dare.id);
    expect(again.json().transaction).toBe(body.transaction);
  });

  it('refuses visitors, accounts without a wallet, unknown and closed dares', async () => {
    expect(
      (await http.post(`/api/dares/${dare.id}/enter-transaction`, { videoUrl: proof(alice).videoUrl }))
        .statusCode,
    ).toBe(401);

    const noWallet = await createUser(ctx.database.db, { username: 'nowallet', walletAddress: null });
    const login = await http.post('/api/auth/login', {
      username: noWallet.username,
      password: 'password123',
    });
    expect(login.statusCode, login.body).toBe(200);
    const token = login.json().token as string;
    const refused = await http.post(
      `/api/dares/${dare.id}/enter-transaction`,
      { videoUrl: proof(alice).videoUrl },
      token,
    );
    expect([refused.statusCode, refused.json().error]).toEqual([400, SUBMISSION_MESSAGES.noWalletToEnter]);
    const submitted = await http.post(`/api/dares/${dare.id}/submit`, proof(alice), token);
    expect([submitted.statusCode, submitted.json().error]).toEqual([
      400,
      SUBMISSION_MESSAGES.noWalletToEnter,
    ]);

    const missing = await requestEntry(ctx, bob, 999_999);
    expect([missing.statusCode, missing.json().error]).toEqual([404, 'Dare not found']);

    const cancelled = await createFundedDare(ctx, owner, '0.1', { title: 'Called off' });
    await ctx.database.db.update(dares).set({ status: 'cancelled' }).where(eq(dares.id, cancelled.id));
    const onCancelled = await requestEntry(ctx, bob, cancelled.id);
    expect([onCancelled.statusCode, onCancelled.json().error]).toEqual([409, 'Submissions Closed']);

    // Past the deadline by the app's clock.
    const late = await dareWithOwnVault();
    await ctx.database.db
      .update(dares)
      .set({ deadline: new Date(ctx.clock.now.getTime() - 1000) })
      .where(eq(dares.id, late.id));
    const onLate = await requestEntry(ctx, bob, late.id);
    expect([onLate.statusCode, onLate.json().error]).toEqual([409, 'Submissions Closed']);

    // A dare whose vault is not on chain cannot take entries.
    const noVault = await createDare(ctx.database.db, { creatorId: owner.id, escrowWallet: null });
    const onNoVault = await requestEntry(ctx, bob, noVault.id);
    expect([onNoVault.statusCode, onNoVault.json().error]).toEqual([409, SUBMISSION_MESSAGES.noVault]);
    expect(await ctx.database.db.select().from(preparedTransactions)).toHaveLength(1);
  });

  it('refuses a vault the moderator cancelled and one past its deadline on the chain clock', async () => {
    const cancelled = await dareWithOwnVault();
    const moderator = await ctx.escrowKeys.moderator();
    const { value: lifetime } = await ctx.chain.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const cancel = await partiallySigned({
      feePayer: await ctx.escrowKeys.feePayer(),
      lifetime,
      instructions: [
        getCancelInstruction({
          programId: ctx.escrowProgramV2Id,
          vault: address(cancelled.vault),
          moderator,
        }),
      ],
    });
    const sent = await ctx.chain.rpc.sendTransaction(cancel.base64, { encoding: 'base64' }).send();
    await waitForConfirmation(ctx.chain.rpc, sent);
    const onCancelled = await requestEntry(ctx, bob, cancelled.id);
    expect([onCancelled.statusCode, onCancelled.json().error]).toEqual([409, 'Submissions Closed']);

    // The vault's deadline (what the program checks) is past on the chain's clock only.
    const closing = await dareWithOwnVault({ deadline: new Date((await chainNow(ctx)).getTime() + 2000) });
    await warpChain(ctx, 3);
    const onClosed = await requestEntry(ctx, bob, closing.id);
    expect([onClosed.statusCode, onClosed.json().error]).toEqual([409, 'Submissions Closed']);
  });

  it('refuses a wallet that cannot pay its entry, in our words, preparing nothing', async () => {
    const broke = await newActor(ctx, 'broke', { sol: '0' });
    const prepared = (await ctx.database.db.select().from(preparedTransactions)).length;
    const empty = await requestEntry(ctx, broke, dare.id);
    expect([empty.statusCode, empty.json().error]).toEqual([
      400,
      SUBMISSION_MESSAGES.entryUnaffordable('0.0019', '0'),
    ]);
    // One lamport short.
    await ctx.chain.airdrop(address(broke.wallet.address), ENTRY_COST - 1n);
    const short = await requestEntry(ctx, broke, dare.id);
    expect([short.statusCode, short.json().error]).toEqual([
      400,
      SUBMISSION_MESSAGES.entryUnaffordable('0.0019', '0.001898119'),
    ]);
    // A few lamports over: the wallet would be left below the chain's rent-exempt minimum.
    await ctx.chain.airdrop(address(broke.wallet.address), 101n);
    const dust = await requestEntry(ctx, broke, dare.id);
    expect([dust.statusCode, dust.json().error]).toEqual([
      400,
      SUBMISSION_MESSAGES.entryUnaffordable('0.0028', '0.00189822'),
    ]);
    expect(await ctx.database.db.select().from(preparedTransactions)).toHaveLength(prepared);
    const submitted = await postSubmit(ctx, broke, dare.id, proof(broke));
    expect(submitted.statusCode).toBe(400);
    expect(await entryOnChain(ctx, vault, broke.wallet.address)).toBeNull();
  });

  it('maps a preflight that finds the wallet short to the same message, and sends nothing', async () => {
    const spender = await newActor(ctx, 'spender', { sol: '0' });
    await fundEntries(ctx, spender.wallet.address);
    const signed = await signedEntry(ctx, spender, dare.id);
    // Between preparing and submitting, the wallet spends what the entry needed.
    const { value: lifetime } = await ctx.chain.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const source = await createSignerFromKeyPair(spender.wallet.keys);
    const spend = await partiallySigned({
      feePayer: source,
      lifetime,
      instructions: [
        // Everything but its fee: the wallet is left empty.
        getTransferSolInstruction({ source, destination: address(owner.wallet.address), amount: ENTRY_RENT }),
      ],
    });
    await waitForConfirmation(
      ctx.chain.rpc,
      await ctx.chain.rpc.sendTransaction(spend.base64, { encoding: 'base64' }).send(),
    );
    const platform = await feePayer();
    const before = await lamportsOf(ctx, platform);
    const res = await postSubmit(ctx, spender, dare.id, {
      ...proof(spender),
      signedEntryTransaction: signed,
    });
    expect([res.statusCode, res.json().error]).toEqual([
      400,
      SUBMISSION_MESSAGES.entryUnaffordable('0.0019'),
    ]);
    expect(await entryOnChain(ctx, vault, spender.wallet.address)).toBeNull();
    expect(await lamportsOf(ctx, platform)).toBe(before);
  });

  it('is rate-limited per user', async () => {
    const eager = await newActor(ctx, 'eager', { sol: '1' });
    const answers = [];
    for (let i = 0; i < 21; i += 1) answers.push((await requestEntry(ctx, eager, dare.id)).statusCode);
    expect(answers.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(answers[20]).toBe(429);
  });
});

describe('POST /api/dares/{id}/submit with the entry', () => {
  it("relays the signed entry, checks it on chain, then records the proof; the entrant's wallet pays", async () => {
    const carol = await newActor(ctx, 'carol', { sol: '0' });
    await fundEntries(ctx, carol.wallet.address);
    const platform = await feePayer();
    const before = await lamportsOf(ctx, platform);

    const unsigned = await postSubmit(ctx, carol, dare.id, proof(carol));
    expect([unsigned.statusCode, unsigned.json().error]).toEqual([400, 'Sign your entry to submit']);

    const res = await postSubmit(ctx, carol, dare.id, {
      ...proof(carol),
      signedEntryTransaction: await signedEntry(ctx, carol, dare.id),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ dareId: dare.id, userId: carol.id, status: 'pending' });
    const entry = await entryOnChain(ctx, vault, carol.wallet.address);
    expect(entry).toMatchObject({
      vault,
      entrant: carol.wallet.address,
      rentPayer: carol.wallet.address,
      rent: ENTRY_RENT,
    });
    // The wallet held exactly the entry's cost and paid it all (fee and rent); the platform nothing.
    expect(await lamportsOf(ctx, carol.wallet.address)).toBe(0n);
    expect(await lamportsOf(ctx, platform)).toBe(before);

    // Entered and submitted: nothing more to hand out.
    const again = await requestEntry(ctx, carol, dare.id);
    expect([again.statusCode, again.json().error]).toEqual([409, 'Already Submitted']);
  });

  it('takes a retry without a signature once the entry exists (the wallet sent it itself)', async () => {
    const dan = await newActor(ctx, 'dan', { sol: '1' });
    const signed = await signedEntry(ctx, dan, dare.id);
    const sent = await ctx.chain.rpc
      .sendTransaction(signed as Base64EncodedWireTransaction, { encoding: 'base64' })
      .send();
    await waitForConfirmation(ctx.chain.rpc, sent);
    const entered = await requestEntry(ctx, dan, dare.id);
    expect([entered.statusCode, entered.json().error]).toEqual([409, SUBMISSION_MESSAGES.alreadyEntered]);
    // Sent again with the proof, the same transaction is not run twice; or left out, it is not needed.
    const res = await postSubmit(ctx, dan, dare.id, { ...proof(dan), signedEntryTransaction: signed });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('relays only the entry prepared for the caller, unchanged and signed by their wallet', async () => {
    const erin = await newActor(ctx, 'erin', { sol: '1' });
    const frank = await newActor(ctx, 'frank', { sol: '1' });
    const erinsEntry = await signedEntry(ctx, erin, dare.id);
    const platform = await feePayer();
    const before = await lamportsOf(ctx, platform);

    // Another user's signed entry: frank has none prepared, then has his own.
    const stolen = await postSubmit(ctx, frank, dare.id, {
      ...proof(frank),
      signedEntryTransaction: erinsEntry,
    });
    expect([stolen.statusCode, stolen.json().error]).toEqual([400, SUBMISSION_MESSAGES.entryNotPrepared]);
    await requestEntry(ctx, frank, dare.id);
    const stillStolen = await postSubmit(ctx, frank, dare.id, {
      ...proof(frank),
      signedEntryTransaction: erinsEntry,
    });
    expect([stillStolen.statusCode, stillStolen.json().error]).toEqual([
      400,
      SUBMISSION_MESSAGES.entryNotAsPrepared,
    ]);

    const decoded = getTransactionDecoder().decode(Buffer.from(erinsEntry, 'base64'));
    // A changed message (one byte of the blockhash) is not what was prepared.
    const bytes = new Uint8Array(decoded.messageBytes);
    bytes[bytes.length - 40] = bytes[bytes.length - 40]! ^ 1;
    const tampered = Buffer.from(
      getTransactionEncoder().encode({ ...decoded, messageBytes: bytes as never }),
    ).toString('base64');
    const changed = await postSubmit(ctx, erin, dare.id, {
      ...proof(erin),
      signedEntryTransaction: tampered,
    });
    expect([changed.statusCode, changed.json().error]).toEqual([400, SUBMISSION_MESSAGES.entryNotAsPrepared]);

    // The wallet's signature forged or removed.
    const forge = (signer: string, signature: Uint8Array | null) =>
      getBase64EncodedWireTransaction({
        ...decoded,
        signatures: { ...decoded.signatures, [signer]: signature as SignatureBytes | null },
      });
    for (const forged of [
      forge(erin.wallet.address, new Uint8Array(64).fill(7)),
      forge(erin.wallet.address, null),
    ]) {
      const res = await postSubmit(ctx, erin, dare.id, { ...proof(erin), signedEntryTransaction: forged });
      expect([res.statusCode, res.json().error]).toEqual([400, SUBMISSION_MESSAGES.entryBadSignature]);
    }
    const garbage = await postSubmit(ctx, erin, dare.id, { ...proof(erin), signedEntryTransaction: 'AAAA' });
    expect([garbage.statusCode, garbage.json().error]).toEqual([400, SUBMISSION_MESSAGES.entryUnreadable]);

    // Nothing was sent, nothing paid, nothing recorded; the real one still works.
    expect(await lamportsOf(ctx, platform)).toBe(before);
    expect(await entryOnChain(ctx, vault, erin.wallet.address)).toBeNull();
    expect(
      await ctx.database.db.select().from(dareSubmissions).where(eq(dareSubmissions.userId, erin.id)),
    ).toHaveLength(0);
    const res = await postSubmit(ctx, erin, dare.id, { ...proof(erin), signedEntryTransaction: erinsEntry });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('costs the entrant one entry and the fee payer nothing under bursts: parallel requests, submits and direct sends', async () => {
    const gina = await newActor(ctx, 'gina', { sol: '0' });
    await fundEntries(ctx, gina.wallet.address, 2);
    const platform = await feePayer();
    const before = await lamportsOf(ctx, platform);

    const handedOut = await Promise.all(Array.from({ length: 10 }, () => requestEntry(ctx, gina, dare.id)));
    expect(handedOut.map((res) => res.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(handedOut.map((res) => res.json().transaction)).size).toBe(1);
    const signed = await walletSigns(gina.wallet, handedOut[0]!.json().transaction);

    // The wallet also pushes it straight to the chain, preflight skipped, several times.
    await Promise.all(
      Array.from({ length: 3 }, () =>
        ctx.chain.rpc
          .sendTransaction(signed as Base64EncodedWireTransaction, {
            encoding: 'base64',
            skipPreflight: true,
          })
          .send(),
      ),
    );
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        postSubmit(ctx, gina, dare.id, {
          // The video the entry was signed for: the only one it can submit.
          videoUrl: proof(gina).videoUrl,
          description: `Burst ${i}`,
          signedEntryTransaction: signed,
        }),
      ),
    );
    expect(answers.filter((res) => res.statusCode === 201)).toHaveLength(1);
    for (const res of answers) expect([201, 409]).toContain(res.statusCode);
    expect(await lamportsOf(ctx, platform)).toBe(before);
    expect(await lamportsOf(ctx, gina.wallet.address)).toBe(ENTRY_COST);
  });

  it('replaces an entry only once it expired, and refuses the expired one', async () => {
    const hal = await newActor(ctx, 'hal', { sol: '1' });
    const first = (await requestEntry(ctx, hal, dare.id)).json();
    const signedFirst = await walletSigns(hal.wallet, first.transaction);
    // Every transaction is a slot on the embedded chain: move past the blockhash's last valid height.
    const height = await ctx.chain.rpc.getBlockHeight({ commitment: 'confirmed' }).send();
    const funder = await newActor(ctx, 'funder', { sol: '0' });
    for (let h = height; h <= BigInt(first.lastValidBlockHeight); h += 1n)
      await ctx.chain.airdrop(address(funder.wallet.address), 1_000_000n);
    const late = await postSubmit(ctx, hal, dare.id, { ...proof(hal), signedEntryTransaction: signedFirst });
    expect([late.statusCode, late.json().error]).toEqual([400, SUBMISSION_MESSAGES.entryExpired]);

    const second = (await requestEntry(ctx, hal, dare.id)).json();
    expect(second.transaction).not.toBe(first.transaction);
    const stale = await postSubmit(ctx, hal, dare.id, { ...proof(hal), signedEntryTransaction: signedFirst });
    expect([stale.statusCode, stale.json().error]).toEqual([400, SUBMISSION_MESSAGES.entryNotAsPrepared]);
    const res = await postSubmit(ctx, hal, dare.id, {
      ...proof(hal),
      signedEntryTransaction: await walletSigns(hal.wallet, second.transaction),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await entryOnChain(ctx, (await dareVault(ctx, dare.id))!, hal.wallet.address)).not.toBeNull();
  });

  it("answers a failed entry with the program's reason and records nothing", async () => {
    const ivy = await newActor(ctx, 'ivy', { sol: '1' });
    const closing = await dareWithOwnVault({ deadline: new Date((await chainNow(ctx)).getTime() + 2000) });
    const signed = await signedEntry(ctx, ivy, closing.id);
    await warpChain(ctx, 3);
    const res = await postSubmit(ctx, ivy, closing.id, { ...proof(ivy), signedEntryTransaction: signed });
    expect([res.statusCode, res.json().error]).toEqual([
      400,
      SUBMISSION_MESSAGES.entryFailed("This dare's deadline has passed"),
    ]);
    expect(
      await ctx.database.db.select().from(dareSubmissions).where(eq(dareSubmissions.userId, ivy.id)),
    ).toHaveLength(0);
  });
});
