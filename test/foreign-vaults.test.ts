/**
 * Issue 33, items 1 and 2 (decision 048): a vault's address is known before it exists, so anyone
 * can create a vault there first with their own terms. Nothing is built into, credited from or
 * entered into a vault that is not ours in every term, and the answer names the term.
 * - The creator as its own judge: the create transaction the API hands out, sent straight to the
 *   chain with the creator's sock as judge, guardian and a one-hour window; then the app's deposit
 *   offer after it. Before: the deposit was offered and the dare opened on the creator's vault.
 * - Front-running: a stranger makes the vault at the honest creator's address first; the honest
 *   create fails, and the app's next offer was a deposit into the stranger's vault.
 * - A dare opened on such a vault before every term was checked (payers' SOL booked into it,
 *   our canceller): Add to Pool and entries refused, and the payments job cancels it and refunds
 *   everyone, booked.
 * Every file's reconcile runs at its end (test/helpers/app.ts): no difference.
 */
import { type Address, address, generateKeyPairSigner } from '@solana/kit';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { solToLamports } from '#contract/money';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { buildCreateVaultV2Transaction } from '#server/chain/escrow-program/app-transactions';
import { findVaultAddress } from '#server/chain/escrow-program/pda';
import { createDare } from '#server/db/factories';
import { dareWallets, ledgerEntries } from '#server/db/schema';
import { walletSigns } from './helpers/entries';
import { sendSigned } from './helpers/escrow-v2';
import { dareBody, defaultDeadline, payTo, signBase64 } from './helpers/money';
import { type Actor, bookCredit, expectReconciled, lamportsOf } from './helpers/payouts';
import { servicesFor } from './helpers/services';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  http,
  actors: { alice, mallory, bob, carol },
} = setupApiSuite({
  // Two judges (the demo admin's wallet and this one), so the judges' order and threshold show.
  env: async () => ({
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    ADMIN_WALLETS: (await generateKeyPairSigner()).address,
  }),
  actors: { alice: {}, mallory: {}, bob: {}, carol: {} },
});

const GRACE_SECONDS = 7n * 86_400n;
const seconds = (iso: string) => BigInt(Math.floor(new Date(iso).getTime() / 1000));

async function reserve(actor: Actor): Promise<string> {
  const res = await http.post('/api/create-escrow-wallet', undefined, actor.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().publicKey as string;
}

async function seedOf(vault: string): Promise<Uint8Array> {
  const [row] = await ctx.database.db.select().from(dareWallets).where(eq(dareWallets.publicKey, vault));
  return new Uint8Array(Buffer.from(row!.vaultSeed!, 'hex'));
}

/** A v2 create_vault at `seed`'s address with the app's terms except `override`, sent straight to the chain. */
async function createVaultStraight(
  creator: Actor,
  seed: Uint8Array,
  deadline: bigint,
  amount: string,
  override: Partial<Parameters<typeof buildCreateVaultV2Transaction>[1]['terms']>,
): Promise<void> {
  const built = await buildCreateVaultV2Transaction(ctx.chain.rpc, {
    programId: ctx.escrowProgramV2Id,
    creator: address(creator.wallet.address),
    dareId: seed,
    terms: {
      kind: 'community',
      deadline,
      refundAfter: deadline + GRACE_SECONDS,
      judges: ctx.judging.judges,
      threshold: ctx.judging.threshold,
      guardian: ctx.judging.guardian,
      canceller: (await ctx.escrowKeys.moderator()).address,
      payoutWindow: ctx.judging.payoutWindowSeconds,
      ...override,
    },
    amount: solToLamports(amount),
  });
  await sendSigned(ctx, await walletSigns(creator.wallet, built.base64));
}

function createTransaction(actor: Actor, escrow: string, amount: string, deadline?: string) {
  return http.post(
    '/api/create-transaction',
    { fromWallet: actor.wallet.address, toWallet: escrow, amount, ...(deadline ? { deadline } : {}) },
    actor.token,
  );
}

async function ledgerLines(escrow: string) {
  const lines = await ctx.database.db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.escrowWallet, escrow));
  return lines.map((line) => `${line.kind} ${line.direction} ${line.amount}`);
}

describe('the creator as its own judge (the API-built create, changed and sent straight)', () => {
  it('opens no dare on it: the forged create is refused, and so is the deposit offered after it', async () => {
    const deadline = defaultDeadline();
    const escrow = await reserve(alice);
    const offered = await createTransaction(alice, escrow, '1', deadline);
    expect(offered.statusCode, offered.body).toBe(200);
    // The offered transaction names the reserved vault; the creator keeps its dare_id and changes
    // the judge, guardian and window to its own keys and one hour.
    const sock = await generateKeyPairSigner();
    const sockGuardian = await generateKeyPairSigner();
    await createVaultStraight(alice, await seedOf(escrow), seconds(deadline), '1', {
      judges: [sock.address],
      guardian: sockGuardian.address,
      payoutWindow: 3600n,
    });
    const vault = await fetchVault(ctx.chain.rpc, ctx.escrowProgramV2Id, address(escrow));
    expect(vault?.judging?.judges).toEqual([sock.address]);

    // The app's next offer for that reservation used to be a deposit into the creator's vault.
    const before = await lamportsOf(ctx, alice.wallet.address);
    const again = await createTransaction(alice, escrow, '1', deadline);
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CONFLICT', foreignTerm: 'judges' });
    expect(again.json().error).toContain('judges');
    // A fresh reservation is offered instead, and it works: one retry, nothing else.
    const fresh = again.json().escrowWallet as { publicKey: string };
    expect(fresh.publicKey).not.toBe(escrow);
    const [row] = await ctx.database.db.select().from(dareWallets).where(eq(dareWallets.publicKey, escrow));
    expect(row).toMatchObject({ status: 'closed', foreignTerm: 'judges', dareId: null });
    // The reservation is abandoned for good: asked again, still nothing to sign.
    expect((await createTransaction(alice, escrow, '1', deadline)).statusCode).toBe(409);
    expect(await lamportsOf(ctx, alice.wallet.address)).toBe(before);

    const paid = await payTo(ctx.app, alice.token, alice.wallet, fresh.publicKey, '1', { deadline });
    const created = await http.post(
      '/api/dares',
      dareBody(alice.wallet, { escrow: fresh.publicKey, ...paid, deadline }, '1'),
      alice.token,
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(await ledgerLines(escrow)).toEqual([]);
    await expectReconciled(ctx);
  });

  it('refuses each other term that differs, naming it', async () => {
    expect(ctx.judging.judges).toHaveLength(2);
    const cases: [string, (deadline: bigint) => Promise<Record<string, unknown>>][] = [
      ['guardian', async () => ({ guardian: (await generateKeyPairSigner()).address })],
      ['payoutWindow', async () => ({ payoutWindow: ctx.judging.payoutWindowSeconds + 1n })],
      ['canceller', async () => ({ canceller: address(alice.wallet.address) })],
      ['threshold', async () => ({ threshold: 2 })],
      [
        'deadline',
        async (deadline) => ({ deadline: deadline + 60n, refundAfter: deadline + 60n + GRACE_SECONDS }),
      ],
      ['refundAfter', async (deadline) => ({ refundAfter: deadline + GRACE_SECONDS + 1n })],
    ];
    for (const [term, override] of cases) {
      const deadline = defaultDeadline();
      const escrow = await reserve(alice);
      expect((await createTransaction(alice, escrow, '0.05', deadline)).statusCode).toBe(200);
      await createVaultStraight(
        alice,
        await seedOf(escrow),
        seconds(deadline),
        '0.05',
        await override(seconds(deadline)),
      );
      const again = await createTransaction(alice, escrow, '0.05', deadline);
      expect(again.statusCode, `${term}: ${again.body}`).toBe(409);
      expect(again.json().foreignTerm).toBe(term);
    }
  });
});

describe('front-running an honest creator', () => {
  it("costs the creator one retry and no SOL: the app never offers the stranger's vault", async () => {
    const deadline = defaultDeadline();
    const escrow = await reserve(alice);
    const offered = await createTransaction(alice, escrow, '1', deadline);
    expect(offered.statusCode, offered.body).toBe(200);
    // Mallory sees the create transaction before it lands and makes the vault first, her terms.
    await createVaultStraight(mallory, await seedOf(escrow), seconds(deadline), '0.01', {
      judges: [address(mallory.wallet.address)],
      canceller: address(mallory.wallet.address),
    });
    const before = await lamportsOf(ctx, alice.wallet.address);
    const sent = await http.post(
      '/api/send-transaction',
      { signedTransaction: await signBase64(alice.wallet, offered.json().transaction) },
      alice.token,
    );
    expect(sent.statusCode).toBeGreaterThanOrEqual(400);
    expect(sent.statusCode).toBeLessThan(500);

    const again = await createTransaction(alice, escrow, '1', deadline);
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json()).toMatchObject({ foreignTerm: 'canceller' });
    expect(again.json().error).toContain('canceller');
    expect(await lamportsOf(ctx, alice.wallet.address)).toBe(before);

    const fresh = (again.json().escrowWallet as { publicKey: string }).publicKey;
    const paid = await payTo(ctx.app, alice.token, alice.wallet, fresh, '1', { deadline });
    const created = await http.post(
      '/api/dares',
      dareBody(alice.wallet, { escrow: fresh, ...paid, deadline }, '1'),
      alice.token,
    );
    expect(created.statusCode, created.body).toBe(201);
    // The creator's 1 SOL is in its own dare's vault; the stranger's vault holds only hers.
    const ours = await fetchVault(ctx.chain.rpc, ctx.escrowProgramV2Id, address(fresh));
    expect(ours?.total).toBe(1_000_000_000n);
    const theirs = await fetchVault(ctx.chain.rpc, ctx.escrowProgramV2Id, address(escrow));
    expect(theirs?.total).toBe(10_000_000n);
    await expectReconciled(ctx);
  });
});

describe('a front-run creator who never comes back', () => {
  it('leaves a reservation the payments job records foreign when it lapses, so reconcile knows its SOL is not ours', async () => {
    const deadline = defaultDeadline();
    const escrow = await reserve(carol);
    expect((await createTransaction(carol, escrow, '0.5', deadline)).statusCode).toBe(200);
    await createVaultStraight(mallory, await seedOf(escrow), seconds(deadline), '0.02', {
      guardian: address(mallory.wallet.address),
    });
    ctx.clock.advance(31 * 60_000);
    const run = await servicesFor(ctx).payments.settleLapsed();
    expect(run.failureReasons).toEqual([]);
    const [row] = await ctx.database.db.select().from(dareWallets).where(eq(dareWallets.publicKey, escrow));
    expect(row).toMatchObject({ foreignTerm: 'guardian', status: 'closed', dareId: null });
    const report = await expectReconciled(ctx);
    expect(report.foreign).toContain(escrow);
  });
});

describe('a dare opened on a foreign vault before every term was checked', () => {
  /** The dare as the old code made it: our canceller, the creator's sock as judge, stake booked. */
  async function dareOnForeignVault(): Promise<{ id: number; vault: Address }> {
    const seed = crypto.getRandomValues(new Uint8Array(32));
    const deadline = defaultDeadline();
    await createVaultStraight(alice, seed, seconds(deadline), '0.5', {
      judges: [(await generateKeyPairSigner()).address],
    });
    const vault = (await findVaultAddress(ctx.escrowProgramV2Id, seed)).address;
    const dare = await createDare(ctx.database.db, {
      creatorId: alice.id,
      stakeAmount: '0',
      totalPool: '0',
      deadline: new Date(deadline),
      escrowWallet: vault,
    });
    await ctx.database.db.insert(dareWallets).values({
      dareId: dare.id,
      publicKey: vault,
      vaultSeed: Buffer.from(seed).toString('hex'),
      programVersion: 2,
      reservedBy: alice.id,
      status: 'active',
    });
    await bookCredit(ctx, {
      dareId: dare.id,
      vault,
      payer: alice,
      kind: 'stake',
      lamports: 500_000_000n,
      signature: `forged-stake-${dare.id}`,
    });
    return { id: dare.id, vault };
  }

  it('takes no Add to Pool and no entry, and the payments job refunds its payers, booked', async () => {
    const dare = await dareOnForeignVault();
    const add = await createTransaction(bob, dare.vault, '0.1');
    expect(add.statusCode, add.body).toBe(409);
    expect(add.json()).toMatchObject({ foreignTerm: 'judges' });
    const enter = await http.post(
      `/api/dares/${dare.id}/enter-transaction`,
      { videoUrl: 'https://videos.example/proof.mp4' },
      carol.token,
    );
    expect(enter.statusCode, enter.body).toBe(409);
    expect(enter.json()).toMatchObject({ foreignTerm: 'judges' });

    const before = await lamportsOf(ctx, alice.wallet.address);
    const run = await servicesFor(ctx).payments.settleLapsed();
    expect(run.failureReasons).toEqual([]);
    expect(await fetchVault(ctx.chain.rpc, ctx.escrowProgramV2Id, dare.vault)).toBeNull();
    // The stake and both rents are back with the creator; the platform paid the fees.
    expect((await lamportsOf(ctx, alice.wallet.address)) - before).toBeGreaterThan(500_000_000n);
    expect(await ledgerLines(dare.vault)).toEqual(['stake 1 0.500000000', 'refund -1 0.500000000']);
    // No dare shows a foreign vault as its pool: it is cancelled, its payers refunded.
    const page = await http.get(`/api/dares/${dare.id}`);
    expect(page.json()).toMatchObject({ status: 'cancelled', phase: 'refunded' });
    await expectReconciled(ctx);
  });
});
