import { type Address, getBase58Decoder } from '@solana/kit';
import { count, eq, isNotNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { REFUND_GRACE_MS } from '#contract/dare-status';
import { DAY_MS } from '#contract/time';
import { fetchReceipt, fetchVault } from '#server/chain/escrow-program/accounts';
import { RECEIPT_SIZE } from '#server/chain/escrow-program/layout';
import { findReceiptAddress, findVaultAddress } from '#server/chain/escrow-program/pda';
import { VAULT_V2_SIZE } from '#server/chain/escrow-program/v2/layout';
import { createRpcChain } from '#server/chain/index';
import { dares, dareWallets, ledgerEntries, paymentIntents, poolContributions } from '#server/db/schema';
import { PAYMENT_INTENT_TTL_MS, REFUSED_PAYMENT_HOLD_MS } from '#server/features/payments/intents/intent';
import { setSetting } from '#server/features/settings/repo';
import { SETTING_KEYS } from '#server/features/settings/switches';
import { createTestContext } from './helpers/app';
import {
  dareBody,
  endLiveMajorDare,
  expectVaultBooked,
  lapsedPaymentsJob,
  payStake,
  payTo,
  sendOwnTransfer,
  sendStraight,
  signBase64,
  signedOwnTransfer,
  waitUntilLanded,
} from './helpers/money';
import { newActor } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';
import { bearer, createTestWallet, type TestWallet } from './helpers/wallet';

interface User {
  wallet: TestWallet;
  token: string;
  id: number;
}

const {
  ctx,
  actors: { alice, bob, admin },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  // Every vault here is v2's: a chain that never had v1, as every new one (decision 081).
  context: { v1Program: false },
  actors: { alice: {}, bob: {}, admin: { admin: true } },
});

/** What a wallet pays the network for one signature (the embedded chain's fee). */
const SIGNATURE_FEE = 5_000n;
/**
 * A new vault's create_vault (program v2) carries one signature, the creator's: the platform does
 * not sign it. Its rent comes back to the creator when the vault is refunded and closed.
 */
const CREATE_VAULT_FEE = SIGNATURE_FEE;
/** A new dare's vault (program v2) and its creator's receipt: rent the creator's wallet puts up. */
let vaultRent = 0n;
let receiptRent = 0n;
let platform: { moderator: Address; rentPayer: Address };

const newUser = (name: string, sol = '10'): Promise<User> => newActor(ctx, name, { sol });

beforeAll(async () => {
  platform = {
    moderator: (await ctx.escrowKeys.moderator()).address,
    rentPayer: (await ctx.escrowKeys.feePayer()).address,
  };
  const rent = (size: number) => ctx.chain.rpc.getMinimumBalanceForRentExemption(BigInt(size)).send();
  vaultRent = await rent(VAULT_V2_SIZE);
  receiptRent = await rent(RECEIPT_SIZE);
});

const post = (url: string, payload: unknown, token?: string) =>
  ctx.app.inject({ method: 'POST', url, payload: payload as object, headers: token ? bearer(token) : {} });

async function balanceOf(wallet: string): Promise<bigint> {
  const res = await post('/api/check-balance', { walletAddress: wallet });
  expect(res.statusCode).toBe(200);
  return BigInt(res.json().balance);
}

async function reserveEscrow(user: User): Promise<string> {
  const res = await post('/api/create-escrow-wallet', undefined, user.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().publicKey;
}

/** A payment intent without sending: the server's transaction and its reference. */
async function prepare(user: User, escrow: string, amount: string, vault: object = {}) {
  const res = await post(
    '/api/create-transaction',
    // A new vault needs the dare's deadline; a deposit does not read it.
    { fromWallet: user.wallet.address, toWallet: escrow, amount, deadline: inDays(7), ...vault },
    user.token,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { transaction: string; reference: string; lamports: string };
}

async function createDare(
  user: User,
  stake = '0.1',
  overrides: { deadline?: string; [field: string]: unknown } = {},
) {
  const paid = await payStake(ctx.app, user.token, user.wallet, stake, { deadline: overrides.deadline });
  const res = await post('/api/dares', dareBody(user.wallet, paid, stake, overrides), user.token);
  expect(res.statusCode, res.body).toBe(201);
  return { dare: res.json(), paid };
}

/** A deadline the vault is created with, as the web app sends it. */
const inDays = (days: number) => new Date(ctx.clock.now.getTime() + days * DAY_MS).toISOString();

/** Every new dare's vault is one of program v2 (decision 036). */
async function vaultOf(escrow: string) {
  return fetchVault(ctx.chain.rpc, ctx.escrowProgramV2Id, escrow as Address);
}

async function receiptOf(escrow: string, wallet: string) {
  const { address } = await findReceiptAddress(ctx.escrowProgramV2Id, escrow as Address, wallet as Address);
  return fetchReceipt(ctx.chain.rpc, ctx.escrowProgramV2Id, address);
}

/** Row counts of every table a credit writes to: a refused request must leave them unchanged. */
async function books() {
  const { db } = ctx.database;
  const [d] = await db.select({ n: count() }).from(dares);
  const [c] = await db.select({ n: count() }).from(poolContributions);
  const [l] = await db.select({ n: count() }).from(ledgerEntries);
  const [u] = await db.select({ n: count() }).from(paymentIntents).where(isNotNull(paymentIntents.usedAt));
  const pools = await db.select({ id: dares.id, pool: dares.totalPool }).from(dares);
  return { dares: d!.n, contributions: c!.n, ledger: l!.n, usedIntents: u!.n, pools };
}

/** Sends `request`, expects the refusal, and checks that nothing was written. */
async function expectRefused(
  request: () => Promise<{ statusCode: number; body: string; json(): { error: string; code: string } }>,
  status: number,
  error: string | RegExp,
) {
  const before = await books();
  const res = await request();
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().error).toMatch(error);
  expect(await books()).toEqual(before);
  return res.json();
}

async function intentOf(signature: string) {
  const [intent] = await ctx.database.db
    .select()
    .from(paymentIntents)
    .where(eq(paymentIntents.signature, signature));
  return intent!;
}

/**
 * A vault the server refused, done: its payment taken for a refund and refunded, its reservation
 * closed, the vault cancelled and closed on chain, and the books showing nothing held in it.
 * Callers check the payer's wallet.
 */
async function expectVaultRefunded(escrow: string, signature: string) {
  expect(await intentOf(signature)).toMatchObject({ usedFor: 'refund' });
  expect((await intentOf(signature)).refundedAt).not.toBeNull();
  const [reservation] = await ctx.database.db
    .select()
    .from(dareWallets)
    .where(eq(dareWallets.publicKey, escrow));
  expect(reservation).toMatchObject({ status: 'closed', dareId: null });
  expect(await vaultOf(escrow)).toBeNull();
  expect(await balanceOf(escrow)).toBe(0n);
  expect(await expectVaultBooked(ctx, escrow)).toBe(0n);
  // Refunded once: the payments job finds nothing left to do.
  expect(await lapsedPaymentsJob(ctx).run()).toMatchObject({
    found: 0,
    credited: 0,
    refused: 0,
    failureReasons: [],
  });
}

describe('create a dare with a verified stake', () => {
  it('creates the dare’s vault on chain with the stake, and records the dare, the contribution and the ledger line', async () => {
    const before = await balanceOf(alice.wallet.address);
    const deadline = inDays(7);
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.5', { deadline, kind: 'community' });
    const res = await post('/api/dares', dareBody(alice.wallet, paid, '0.5'), alice.token);
    expect(res.statusCode, res.body).toBe(201);
    const dare = res.json();
    expect(dare).toMatchObject({
      title: 'Eat a lemon',
      stakeAmount: '0.5',
      totalPool: '0.5',
      total_pool: '0.5',
      escrowWallet: paid.escrow,
      transactionSignature: paid.signature,
      network: 'localnet',
      status: 'active',
      creatorId: alice.id,
      creator: { id: alice.id, username: 'alice' },
    });
    // The wallet moved exactly the stake, the rent of the vault and of its receipt (returned when
    // they close), and the fee of its one signature: the platform signs and pays nothing.
    expect(before - (await balanceOf(alice.wallet.address))).toBe(
      500_000_000n + vaultRent + receiptRent + SIGNATURE_FEE,
    );
    const [wallet] = await ctx.database.db
      .select()
      .from(dareWallets)
      .where(eq(dareWallets.publicKey, paid.escrow));
    expect(wallet).toMatchObject({ dareId: dare.id, status: 'active', balance: '0.500000000' });
    // No key exists for it: the address is the program's vault of a random seed.
    expect(wallet).toMatchObject({ privateKey: null, derivationIndex: null });
    expect(wallet!.vaultSeed).toMatch(/^[0-9a-f]{64}$/);
    const pda = await findVaultAddress(ctx.escrowProgramV2Id, Buffer.from(wallet!.vaultSeed!, 'hex'));
    expect(pda.address).toBe(paid.escrow);
    const vault = await vaultOf(paid.escrow);
    const seconds = BigInt(Math.floor(new Date(deadline).getTime() / 1000));
    expect(vault).toMatchObject({
      version: 2,
      kind: 'community',
      status: 'open',
      // v2's canceller: the moderator key may cancel (refunds only), never pay out.
      moderator: platform.moderator,
      rentPayer: alice.wallet.address,
      rent: vaultRent,
      deadline: seconds,
      refundAfter: seconds + BigInt(REFUND_GRACE_MS / 1000),
      total: 500_000_000n,
      receiptCount: 1,
    });
    expect(await balanceOf(paid.escrow)).toBe(vaultRent + 500_000_000n);
    expect(await receiptOf(paid.escrow, alice.wallet.address)).toMatchObject({
      payer: alice.wallet.address,
      rentPayer: alice.wallet.address,
      amount: 500_000_000n,
      lamports: receiptRent,
    });
    const ledger = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.signature, paid.signature));
    expect(ledger).toMatchObject([{ kind: 'stake', escrowWallet: paid.escrow, dareId: dare.id }]);
    expect(await expectVaultBooked(ctx, paid.escrow)).toBe(500_000_000n);

    const page = await ctx.app.inject({ url: `/api/dares/${dare.id}` });
    expect(page.json()).toMatchObject({ id: dare.id, totalPool: '0.5' });
    const list = await ctx.app.inject({ url: '/api/dares' });
    expect(list.json().map((d: { id: number }) => d.id)).toContain(dare.id);

    // This chain runs no v1 (decision 081): the config names none, the explorer reads v2's create.
    expect((await ctx.app.inject({ url: '/api/config' })).json()).toMatchObject({
      escrowProgramId: null,
      escrowProgramV2Id: ctx.escrowProgramV2Id,
    });
    const explorer = await ctx.app.inject({ url: `/api/transactions/${paid.signature}` });
    expect(explorer.statusCode, explorer.body).toBe(200);
    expect(
      (explorer.json().instructions as { program: string; type: string }[]).filter(
        (ix) => ix.program === 'DarePool escrow',
      ),
    ).toMatchObject([{ type: 'create vault' }]);
  });

  it("refuses to build a new vault without the dare's deadline, before any SOL moves (decision 037)", async () => {
    const escrow = await reserveEscrow(alice);
    const before = await balanceOf(alice.wallet.address);
    const res = await expectRefused(
      () =>
        post(
          '/api/create-transaction',
          { fromWallet: alice.wallet.address, toWallet: escrow, amount: '0.1' },
          alice.token,
        ),
      400,
      "The dare's deadline is required: a new dare's vault is created with it",
    );
    expect(res).toMatchObject({ fields: { deadline: expect.any(String) } });
    expect(await vaultOf(escrow)).toBeNull();
    expect(await balanceOf(alice.wallet.address)).toBe(before);
    // With it, the same reservation is built and the vault holds that deadline.
    const deadline = inDays(3);
    const { signature } = await payTo(ctx.app, alice.token, alice.wallet, escrow, '0.1', { deadline });
    expect((await vaultOf(escrow))!.deadline).toBe(BigInt(Math.floor(new Date(deadline).getTime() / 1000)));
    const res2 = await post(
      '/api/dares',
      dareBody(alice.wallet, { escrow, reference: '', signature, deadline }, '0.1'),
      alice.token,
    );
    expect(res2.statusCode, res2.body).toBe(201);
  });

  it('refuses a second stake into the same vault whose dare has another deadline, and refunds the vault', async () => {
    const alices = await balanceOf(alice.wallet.address);
    const deadline = inDays(3);
    const first = await payStake(ctx.app, alice.token, alice.wallet, '0.1', { deadline });
    // The vault exists now: the same reservation takes a deposit, which carries no deadline.
    const second = await payTo(ctx.app, alice.token, alice.wallet, first.escrow, '0.05');
    expect((await vaultOf(first.escrow))!.total).toBe(150_000_000n);
    const res = await post(
      '/api/dares',
      dareBody(alice.wallet, { ...first, ...second }, '0.05', { deadline: inDays(2) }),
      alice.token,
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('The deadline does not match the one the payment was prepared with');
    await expectVaultRefunded(first.escrow, second.signature);
    expect((await intentOf(first.signature)).refundedAt).not.toBeNull();
    // Both payments came back; only the two transactions' fees are gone.
    expect(alices - (await balanceOf(alice.wallet.address))).toBe(CREATE_VAULT_FEE + SIGNATURE_FEE);
  });

  it('refuses a stake outside 0.01 to 5 SOL, a Major Dare vault for a non-admin and a past deadline, before any SOL moves', async () => {
    const escrow = await reserveEscrow(alice);
    const createTransaction = (body: object) =>
      post(
        '/api/create-transaction',
        { fromWallet: alice.wallet.address, toWallet: escrow, ...body },
        alice.token,
      );
    const over = await expectRefused(
      () => createTransaction({ amount: '5.5' }),
      400,
      'Please use stake amounts of 5 SOL or less. You tried to stake 5.5 SOL',
    );
    expect(over.code).toBe('BAD_REQUEST');
    await expectRefused(() => createTransaction({ amount: '0.001' }), 400, 'The minimum stake is 0.01 SOL');
    await expectRefused(
      () => createTransaction({ amount: '0.1', kind: 'major' }),
      403,
      'Only an admin can fund a Major Dare',
    );
    await expectRefused(
      () =>
        createTransaction({
          amount: '0.1',
          deadline: new Date(ctx.clock.now.getTime() - 1000).toISOString(),
        }),
      400,
      'Deadline must be in the future',
    );
    await expectRefused(
      () => createTransaction({ amount: '0.1', deadline: 'tomorrow' }),
      400,
      'Deadline must be a date and time',
    );
    expect(await vaultOf(escrow)).toBeNull();
    // The dare body is checked too, whatever was paid.
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.1');
    const res = await expectRefused(
      () => post('/api/dares', dareBody(alice.wallet, paid, '6'), alice.token),
      400,
      /5 SOL or less/,
    );
    expect(res.code).toBe('VALIDATION_FAILED');
    expect((await post('/api/dares', dareBody(alice.wallet, paid, '0.1'), alice.token)).statusCode).toBe(201);
  });

  it('lets an admin fund a Major Dare vault above the stake maximum, paying 70/30', async () => {
    const paid = await payStake(ctx.app, admin.token, admin.wallet, '6', {
      kind: 'major',
      deadline: inDays(5),
    });
    expect(await vaultOf(paid.escrow)).toMatchObject({ kind: 'major', total: 6_000_000_000n });
    const res = await post(
      '/api/admin/major-dare',
      {
        title: 'Major: a marathon',
        description: 'Run 42 km in a day.',
        prizeAmount: '6',
        category: 'fitness',
        difficulty: 'hard',
        deadline: paid.deadline,
        maxParticipants: 100,
        transactionSignature: paid.signature,
        escrowWalletAddress: paid.escrow,
      },
      admin.token,
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ isMajor: true, totalPool: '6' });
  });

  it('answers 403 at every step while dare creation is switched off; a stake paid meanwhile is refunded', async () => {
    const before = await balanceOf(alice.wallet.address);
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.1');
    const escrow = await reserveEscrow(alice);
    await setSetting(ctx.database.db, SETTING_KEYS.dareCreationEnabled, false);
    try {
      const message = 'Dare creation is currently disabled';
      await expectRefused(() => post('/api/create-escrow-wallet', undefined, alice.token), 403, message);
      await expectRefused(
        () =>
          post(
            '/api/create-transaction',
            { fromWallet: alice.wallet.address, toWallet: escrow, amount: '0.1' },
            alice.token,
          ),
        403,
        message,
      );
      const res = await post('/api/dares', dareBody(alice.wallet, paid, '0.1'), alice.token);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error).toBe(message);
    } finally {
      await setSetting(ctx.database.db, SETTING_KEYS.dareCreationEnabled, true);
    }
    // The vault can never fund a dare now: it was cancelled at once and the stake went back.
    await expectVaultRefunded(paid.escrow, paid.signature);
    expect(before - (await balanceOf(alice.wallet.address))).toBe(CREATE_VAULT_FEE);
    const again = await post('/api/dares', dareBody(alice.wallet, paid, '0.1'), alice.token);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('The transaction does not belong to this payment request');
  });

  it('refuses a network other than the configured one, keeping the payment for a corrected form; a past deadline refunds the vault', async () => {
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.1');
    await expectRefused(
      () => post('/api/dares', dareBody(alice.wallet, paid, '0.1', { network: 'mainnet-beta' }), alice.token),
      400,
      /runs on Localnet/i,
    );
    const res = await post('/api/dares', dareBody(alice.wallet, paid, '0.1'), alice.token);
    expect(res.statusCode, res.body).toBe(201);
    // The vault fixed its deadline: a dare with another one, here a past one, can never use it.
    const other = await payStake(ctx.app, alice.token, alice.wallet, '0.1');
    const past = await post(
      '/api/dares',
      dareBody(alice.wallet, other, '0.1', { deadline: new Date(Date.now() - 60_000).toISOString() }),
      alice.token,
    );
    expect(past.statusCode, past.body).toBe(400);
    expect(past.json().error).toBe('Deadline must be in the future');
    await expectVaultRefunded(other.escrow, other.signature);
  });

  it('cancels and refunds a vault whose deadline passed while the wallet was signing', async () => {
    const before = await balanceOf(alice.wallet.address);
    const deadline = new Date(ctx.clock.now.getTime() + 3600_000).toISOString();
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.2', { deadline });
    ctx.clock.advance(2 * 3600_000);
    const res = await post('/api/dares', dareBody(alice.wallet, paid, '0.2'), alice.token);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('Deadline must be in the future');
    await expectVaultRefunded(paid.escrow, paid.signature);
    // Only the fees of the wallet's one transaction are gone; the refunds cost it nothing.
    expect(before - (await balanceOf(alice.wallet.address))).toBe(CREATE_VAULT_FEE);
  });

  it('cancels and refunds a vault whose deadline or kind differ from the dare', async () => {
    await endLiveMajorDare(ctx.app, admin.token);
    const alices = await balanceOf(alice.wallet.address);
    const admins = await balanceOf(admin.wallet.address);
    const deadline = inDays(4);
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.1', { deadline });
    const res = await post(
      '/api/dares',
      dareBody(alice.wallet, paid, '0.1', { deadline: inDays(5) }),
      alice.token,
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('The deadline does not match the one the payment was prepared with');
    await expectVaultRefunded(paid.escrow, paid.signature);
    expect(alices - (await balanceOf(alice.wallet.address))).toBe(CREATE_VAULT_FEE);

    const major = await payStake(ctx.app, admin.token, admin.wallet, '0.1', { kind: 'major' });
    const community = await post('/api/dares', dareBody(admin.wallet, major, '0.1'), admin.token);
    expect(community.statusCode, community.body).toBe(400);
    expect(community.json().error).toBe(
      'The kind of dare does not match the one the payment was prepared with',
    );
    await expectVaultRefunded(major.escrow, major.signature);
    expect(admins - (await balanceOf(admin.wallet.address))).toBe(CREATE_VAULT_FEE);
  });

  it('requires a session and the wallet of the account', async () => {
    await expectRefused(
      () => post('/api/create-escrow-wallet', undefined),
      401,
      'Please connect your wallet or log in first',
    );
    const escrow = await reserveEscrow(alice);
    await expectRefused(
      () =>
        post(
          '/api/create-transaction',
          { fromWallet: bob.wallet.address, toWallet: escrow, amount: '0.1' },
          alice.token,
        ),
      400,
      'The paying wallet must be the wallet of your account',
    );
    // Bob cannot pay into Alice's reservation: to him it does not exist.
    await expectRefused(
      () =>
        post(
          '/api/create-transaction',
          { fromWallet: bob.wallet.address, toWallet: escrow, amount: '0.1' },
          bob.token,
        ),
      404,
      'Dare escrow wallet not found',
    );
  });

  it('expires an unused escrow reservation after 30 minutes', async () => {
    const escrow = await reserveEscrow(alice);
    const status = async () =>
      (await ctx.database.db.select().from(dareWallets).where(eq(dareWallets.publicKey, escrow)))[0]?.status;
    ctx.clock.advance(29 * 60 * 1000);
    await lapsedPaymentsJob(ctx).run();
    expect(await status()).toBe('reserved');
    ctx.clock.advance(2 * 60 * 1000);
    await expectRefused(
      () =>
        post(
          '/api/create-transaction',
          { fromWallet: alice.wallet.address, toWallet: escrow, amount: '0.1' },
          alice.token,
        ),
      409,
      /reservation has expired/,
    );
    // The payments job books the lapse.
    await lapsedPaymentsJob(ctx).run();
    expect(await status()).toBe('expired');
  });
});

describe('payments that are not credited', () => {
  it('refuses a forged signature and an unknown one', async () => {
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.1');
    const forged = getBase58Decoder().decode(new Uint8Array(64).fill(7));
    const res = await expectRefused(
      () => post('/api/dares', dareBody(alice.wallet, { ...paid, signature: forged }, '0.1'), alice.token),
      400,
      /not found or is not confirmed/,
    );
    expect(res.code).toBe('PAYMENT_NOT_VERIFIED');

    // Signed by Alice for her own open intent, but never sent: the chain does not know it.
    const escrow = await reserveEscrow(alice);
    const { transaction } = await prepare(alice, escrow, '0.1');
    const signed = await signBase64(alice.wallet, transaction);
    const unsent = getBase58Decoder().decode(Buffer.from(signed, 'base64').subarray(1, 65));
    await expectRefused(
      () =>
        post(
          '/api/dares',
          dareBody(alice.wallet, { escrow, reference: '', signature: unsent }, '0.1'),
          alice.token,
        ),
      400,
      /not found or is not confirmed/,
    );
    expect((await post('/api/dares', dareBody(alice.wallet, paid, '0.1'), alice.token)).statusCode).toBe(201);
  });

  it('relays nothing that fails: a stake above the balance is refused with a readable reason', async () => {
    const poor = await newUser('poor', '0.05');
    const escrow = await reserveEscrow(poor);
    const { transaction } = await prepare(poor, escrow, '1');
    const unreadable = await expectRefused(
      () => post('/api/send-transaction', { signedTransaction: 'AAAA' }, poor.token),
      400,
      'The signed transaction could not be read',
    );
    expect(unreadable.code).toBe('BAD_REQUEST');
    const before = await balanceOf(poor.wallet.address);
    const sent = await post(
      '/api/send-transaction',
      { signedTransaction: await signBase64(poor.wallet, transaction) },
      poor.token,
    );
    expect(sent.statusCode, sent.body).toBe(400);
    expect(sent.json()).toMatchObject({
      code: 'TRANSACTION_FAILED',
      error: expect.stringMatching(/insufficient/i),
    });
    expect(await balanceOf(poor.wallet.address)).toBe(before);
    expect(await vaultOf(escrow)).toBeNull();
  });

  it('refuses the server’s transaction when it failed on chain', async () => {
    const poor = await newUser('poorer', '0.05');
    const escrow = await reserveEscrow(poor);
    const { transaction, reference } = await prepare(poor, escrow, '1');
    // Signed and sent straight to the chain without preflight: it lands, pays its fee, and fails.
    const signature = await sendStraight(ctx.chain, await signBase64(poor.wallet, transaction), {
      skipPreflight: true,
    });
    await waitUntilLanded(ctx.chain, signature);
    await expectRefused(
      () => post('/api/dares', dareBody(poor.wallet, { escrow, reference, signature }, '1'), poor.token),
      400,
      'The transaction failed on chain',
    );
    expect(await vaultOf(escrow)).toBeNull();
  });

  it('refuses a request for another amount than was paid, and refunds the stake once the hold lapses', async () => {
    const carol = await newUser('carol', '1');
    const before = await balanceOf(carol.wallet.address);
    const paid = await payStake(ctx.app, carol.token, carol.wallet, '0.2');
    for (const stake of ['0.15', '0.25']) {
      await expectRefused(
        () => post('/api/dares', dareBody(carol.wallet, paid, stake), carol.token),
        400,
        'The stake amount does not match the payment',
      );
    }
    // Held for a corrected request, not longer: then the vault is cancelled and refunded.
    expect(await lapsedPaymentsJob(ctx).run()).toMatchObject({ refused: 0 });
    ctx.clock.advance(REFUSED_PAYMENT_HOLD_MS + 60_000);
    expect(await lapsedPaymentsJob(ctx).run()).toMatchObject({ refused: 1, failureReasons: [] });
    await expectVaultRefunded(paid.escrow, paid.signature);
    expect(before - (await balanceOf(carol.wallet.address))).toBe(CREATE_VAULT_FEE);
  });

  it('refuses a payment into another vault than the request names', async () => {
    const dave = await newUser('dave', '1');
    const other = await reserveEscrow(dave);
    const paid = await payStake(ctx.app, dave.token, dave.wallet, '0.1');
    await expectRefused(
      () => post('/api/dares', dareBody(dave.wallet, { ...paid, escrow: other }, '0.1'), dave.token),
      400,
      'The transaction does not transfer SOL to the escrow wallet',
    );
    const res = await post('/api/dares', dareBody(dave.wallet, paid, '0.1'), dave.token);
    expect(res.statusCode, res.body).toBe(201);
  });

  it("refuses another user's transaction, and it stays good for its owner", async () => {
    const bobs = await payStake(ctx.app, bob.token, bob.wallet, '0.1');
    await expectRefused(
      () => post('/api/dares', dareBody(alice.wallet, bobs, '0.1'), alice.token),
      400,
      'The transaction does not belong to this payment request',
    );
    // Nor can Alice claim it by naming Bob's wallet.
    await expectRefused(
      () => post('/api/dares', dareBody(bob.wallet, bobs, '0.1'), alice.token),
      400,
      'The paying wallet must be the wallet of your account',
    );
    const res = await post('/api/dares', dareBody(bob.wallet, bobs, '0.1'), bob.token);
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses a transaction the server did not build, at the relay and at step 7', async () => {
    const erin = await newUser('erin', '1');
    const escrow = await reserveEscrow(erin);
    await prepare(erin, escrow, '0.1');
    const stranger = await createTestWallet();
    const signature = await sendOwnTransfer(ctx.chain, erin.wallet, { to: stranger.address, sol: '0.1' });
    await waitUntilLanded(ctx.chain, signature);
    await expectRefused(
      () =>
        post('/api/dares', dareBody(erin.wallet, { escrow, reference: '', signature }, '0.1'), erin.token),
      400,
      'The transaction does not belong to this payment request',
    );
    const own = await post(
      '/api/send-transaction',
      { signedTransaction: await signedOwnTransfer(ctx.chain, erin.wallet, { to: escrow, sol: '0.1' }) },
      erin.token,
    );
    expect(own.statusCode).toBe(400);
    expect(own.json().error).toBe('This transaction was not prepared by DarePool for your account');
    expect(await balanceOf(escrow)).toBe(0n);
  });

  it('answers a replayed signature with the same dare and refuses it for a second dare, also after a restart', async () => {
    const { dare, paid } = await createDare(alice, '0.2', { title: 'First dare' });
    const before = await books();
    const again = await post(
      '/api/dares',
      dareBody(alice.wallet, paid, '0.2', { title: 'First dare' }),
      alice.token,
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ id: dare.id, totalPool: '0.2' });
    expect(await books()).toEqual(before);

    for (const restart of [false, true]) {
      if (restart) await ctx.restart();
      await expectRefused(
        () => post('/api/dares', dareBody(alice.wallet, paid, '0.2', { title: 'Second dare' }), alice.token),
        409,
        'This transaction has already been used',
      );
      // Nor does a stake signature count as a contribution to the pool.
      await expectRefused(
        () =>
          post(
            `/api/dares/${dare.id}/add-pool`,
            { amount: '0.2', userWallet: alice.wallet.address, transactionSignature: paid.signature },
            alice.token,
          ),
        409,
        'This transaction has already been used',
      );
    }
    const replay = await post(
      '/api/dares',
      dareBody(alice.wallet, paid, '0.2', { title: 'First dare' }),
      alice.token,
    );
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().id).toBe(dare.id);
  });

  it('credits one signature submitted twice at the same time exactly once', async () => {
    // Before paying: the ledger line is written when the relay sees the payment confirmed.
    const before = await books();
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.3');
    const body = dareBody(alice.wallet, paid, '0.3', { title: 'Raced' });
    const answers = await Promise.all([1, 2, 3].map(() => post('/api/dares', body, alice.token)));
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses[0], answers.map((r) => r.body).join('\n')).toBe(200);
    expect(statuses).toContain(201);
    for (const status of statuses) expect([200, 201, 409]).toContain(status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    const after = await books();
    expect(after.dares).toBe(before.dares + 1);
    expect(after.ledger).toBe(before.ledger + 1);
    expect(after.contributions).toBe(before.contributions + 1);
  });
});

describe('add to pool', () => {
  it("deposits into the dare's vault and adds the verified contribution to its pool, once", async () => {
    const { dare } = await createDare(alice, '0.5', { title: 'Pool me' });
    const before = await balanceOf(bob.wallet.address);
    const { signature } = await payTo(ctx.app, bob.token, bob.wallet, dare.escrowWallet, '0.25');
    const body = { amount: '0.25', userWallet: bob.wallet.address, transactionSignature: signature };
    const res = await post(`/api/dares/${dare.id}/add-pool`, body, bob.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: dare.id,
      totalPool: '0.75',
      total_pool: '0.75',
      stakeAmount: '0.5',
    });
    // A first deposit creates Bob's receipt: Bob's wallet lends its rent (returned when the
    // receipt closes) and is the only signer; the platform signs nothing (decision 058).
    expect(before - (await balanceOf(bob.wallet.address))).toBe(250_000_000n + SIGNATURE_FEE + receiptRent);
    expect(await vaultOf(dare.escrowWallet)).toMatchObject({ total: 750_000_000n, receiptCount: 2 });
    expect(await receiptOf(dare.escrowWallet, bob.wallet.address)).toMatchObject({
      amount: 250_000_000n,
      rentPayer: bob.wallet.address,
      rent: receiptRent,
    });
    expect(await expectVaultBooked(ctx, dare.escrowWallet)).toBe(750_000_000n);

    const replay = await post(`/api/dares/${dare.id}/add-pool`, body, bob.token);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().totalPool).toBe('0.75');
    const [{ n }] = (await ctx.database.db
      .select({ n: count() })
      .from(poolContributions)
      .where(eq(poolContributions.dareId, dare.id))) as [{ n: number }];
    expect(n).toBe(2);

    // A later deposit adds to the receipt: only the wallet signs.
    const second = await balanceOf(bob.wallet.address);
    const more = await payTo(ctx.app, bob.token, bob.wallet, dare.escrowWallet, '0.05');
    expect(second - (await balanceOf(bob.wallet.address))).toBe(50_000_000n + SIGNATURE_FEE);
    const added = await post(
      `/api/dares/${dare.id}/add-pool`,
      { amount: '0.05', userWallet: bob.wallet.address, transactionSignature: more.signature },
      bob.token,
    );
    expect(added.json().totalPool).toBe('0.8');
    expect(await receiptOf(dare.escrowWallet, bob.wallet.address)).toMatchObject({ amount: 300_000_000n });
  });

  it('refuses a wrong amount, another dare and a dare no longer taking payments; a deposit that landed is in the pool', async () => {
    const { dare } = await createDare(alice, '0.1', { title: 'Closing soon' });
    const { dare: other } = await createDare(alice, '0.1', { title: 'Other' });
    const { signature } = await payTo(ctx.app, bob.token, bob.wallet, dare.escrowWallet, '0.1');
    await expectRefused(
      () =>
        post(
          `/api/dares/${dare.id}/add-pool`,
          { amount: '0.2', userWallet: bob.wallet.address, transactionSignature: signature },
          bob.token,
        ),
      400,
      'The amount does not match the payment',
    );
    await expectRefused(
      () =>
        post(
          `/api/dares/${other.id}/add-pool`,
          { amount: '0.1', userWallet: bob.wallet.address, transactionSignature: signature },
          bob.token,
        ),
      400,
      /does not belong to this payment request|does not transfer SOL/,
    );
    await expectRefused(
      () =>
        post(
          '/api/dares/999999/add-pool',
          { amount: '0.1', userWallet: bob.wallet.address, transactionSignature: signature },
          bob.token,
        ),
      404,
      'Dare not found',
    );
    await expectRefused(
      () =>
        post(
          `/api/dares/${dare.id}/add-pool`,
          { amount: '0', userWallet: bob.wallet.address, transactionSignature: signature },
          bob.token,
        ),
      400,
      /valid amount/,
    );

    await ctx.database.db.update(dares).set({ status: 'completed' }).where(eq(dares.id, dare.id));
    await expectRefused(
      () =>
        post(
          '/api/create-transaction',
          { fromWallet: bob.wallet.address, toWallet: dare.escrowWallet, amount: '0.1' },
          bob.token,
        ),
      409,
      'This dare no longer accepts contributions',
    );
    // SOL deposited under a request made while the dare was active is in its vault's pool on
    // chain, and goes with it (to the winner, or back with every receipt): the books say so.
    const late = await post(
      `/api/dares/${dare.id}/add-pool`,
      { amount: '0.1', userWallet: bob.wallet.address, transactionSignature: signature },
      bob.token,
    );
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json().totalPool).toBe('0.2');
    expect(await expectVaultBooked(ctx, dare.escrowWallet)).toBe(200_000_000n);
  });
});

describe('payments nobody finished', () => {
  it('books and refunds a vault created and never reported', async () => {
    const fay = await newUser('fay', '1');
    const before = await balanceOf(fay.wallet.address);
    const escrow = await reserveEscrow(fay);
    const { transaction } = await prepare(fay, escrow, '0.3', { deadline: inDays(2) });
    // Sent straight to the chain: the server never hears of it.
    const signature = await sendStraight(ctx.chain, await signBase64(fay.wallet, transaction));
    await waitUntilLanded(ctx.chain, signature);
    expect(await lapsedPaymentsJob(ctx).run()).toMatchObject({ found: 0, refused: 0 });
    ctx.clock.advance(PAYMENT_INTENT_TTL_MS + 60_000);
    expect(await lapsedPaymentsJob(ctx).run()).toMatchObject({ found: 1, refused: 1, failureReasons: [] });
    await expectVaultRefunded(escrow, signature);
    expect(before - (await balanceOf(fay.wallet.address))).toBe(CREATE_VAULT_FEE);
    const lines = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.escrowWallet, escrow));
    expect(lines.map((line) => [line.kind, line.counterparty, line.amount])).toEqual([
      ['stake', fay.wallet.address, '0.300000000'],
      ['refund', fay.wallet.address, '0.300000000'],
    ]);
  });

  it('credits to the pool a deposit whose step 7 never came, relayed or sent straight', async () => {
    const { dare } = await createDare(alice, '0.1', { title: 'Quiet backers' });
    const gus = await newUser('gus', '1');
    const relayed = await payTo(ctx.app, gus.token, gus.wallet, dare.escrowWallet, '0.05');
    const { transaction } = await prepare(gus, dare.escrowWallet, '0.07');
    const straight = await sendStraight(ctx.chain, await signBase64(gus.wallet, transaction));
    await waitUntilLanded(ctx.chain, straight);
    ctx.clock.advance(PAYMENT_INTENT_TTL_MS + 60_000);
    expect(await lapsedPaymentsJob(ctx).run()).toMatchObject({
      found: 1,
      credited: 2,
      refused: 0,
      failureReasons: [],
    });
    const page = await ctx.app.inject({ url: `/api/dares/${dare.id}` });
    expect(page.json().totalPool).toBe('0.22');
    const rows = await ctx.database.db
      .select()
      .from(poolContributions)
      .where(eq(poolContributions.userId, gus.id));
    expect(rows.map((row) => row.transactionSignature).sort()).toEqual([relayed.signature, straight].sort());
    expect(await expectVaultBooked(ctx, dare.escrowWallet)).toBe(220_000_000n);
    // Credited once: a late step 7 answers with the same pool, and the job finds nothing more.
    const late = await post(
      `/api/dares/${dare.id}/add-pool`,
      { amount: '0.05', userWallet: gus.wallet.address, transactionSignature: relayed.signature },
      gus.token,
    );
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json().totalPool).toBe('0.22');
    expect(await lapsedPaymentsJob(ctx).run()).toMatchObject({ found: 0, credited: 0, refused: 0 });
  });
});

describe('test SOL and balances', () => {
  it('has no test SOL on a real cluster', async () => {
    // Nothing listens on port 9: the airdrop must be refused before any RPC call is made.
    const devnet = await createTestContext(
      {},
      { chain: createRpcChain({ url: 'http://127.0.0.1:9', cluster: 'devnet' }) },
    );
    try {
      const wallet = await createTestWallet();
      const res = await devnet.app.inject({
        method: 'POST',
        url: '/api/dev/airdrop',
        payload: { walletAddress: wallet.address, amount: '1' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('Test SOL is only available on the embedded chain');
    } finally {
      await devnet.close();
    }
  });

  it('airdrops at most 10 SOL a call and reports exact balances', async () => {
    const wallet = await createTestWallet();
    const res = await post('/api/dev/airdrop', { walletAddress: wallet.address, amount: '10' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().balance).toBe('10000000000');
    const tooMuch = await post('/api/dev/airdrop', { walletAddress: wallet.address, amount: '10.000000001' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error).toBe('At most 10 SOL per request');
    expect(await balanceOf(wallet.address)).toBe(10_000_000_000n);
    const bad = await post('/api/check-balance', { walletAddress: 'not-a-wallet' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('server-side minimums (issue 13)', () => {
  it('refuses a pool contribution below 0.01 SOL at create-transaction and add-pool, changing nothing', async () => {
    const { dare } = await createDare(alice, '0.1', { title: 'Tiny backers' });
    for (const amount of ['0.000000001', '0.009999999']) {
      await expectRefused(
        () =>
          post(
            '/api/create-transaction',
            { fromWallet: bob.wallet.address, toWallet: dare.escrowWallet, amount },
            bob.token,
          ),
        400,
        'Please enter a valid amount',
      );
    }
    const { signature } = await payTo(ctx.app, bob.token, bob.wallet, dare.escrowWallet, '0.01');
    await expectRefused(
      () =>
        post(
          `/api/dares/${dare.id}/add-pool`,
          { amount: '0.000000001', userWallet: bob.wallet.address, transactionSignature: signature },
          bob.token,
        ),
      400,
      'Please enter a valid amount',
    );
    // The smallest allowed amount goes through.
    const res = await post(
      `/api/dares/${dare.id}/add-pool`,
      { amount: '0.01', userWallet: bob.wallet.address, transactionSignature: signature },
      bob.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().totalPool).toBe('0.11');
  });
});

describe('the relay sends only what the server built (issue 13)', () => {
  it('refuses another message carrying the caller’s reference, and relays nothing', async () => {
    const escrow = await reserveEscrow(alice);
    const { reference } = await prepare(alice, escrow, '0.1');
    const stranger = await createTestWallet();
    const before = await balanceOf(alice.wallet.address);
    // The whole wallet to an unrelated address, carrying Alice's open reference.
    const drain = await signedOwnTransfer(ctx.chain, alice.wallet, {
      to: stranger.address,
      sol: '9',
      reference,
    });
    const res = await expectRefused(
      () => post('/api/send-transaction', { signedTransaction: drain }, alice.token),
      400,
      'This is not the transaction DarePool prepared for this payment; sign the prepared transaction unchanged',
    );
    expect(res.code).toBe('BAD_REQUEST');
    // The vault's address, another amount: not the prepared message either.
    const other = await signedOwnTransfer(ctx.chain, alice.wallet, { to: escrow, sol: '0.2', reference });
    await expectRefused(
      () => post('/api/send-transaction', { signedTransaction: other }, alice.token),
      400,
      /not the transaction DarePool prepared/,
    );
    expect(await balanceOf(alice.wallet.address)).toBe(before);
    expect(await balanceOf(stranger.address)).toBe(0n);
    expect(await balanceOf(escrow)).toBe(0n);
  });

  it('refuses the prepared message with a signature that is not the wallet’s', async () => {
    const escrow = await reserveEscrow(alice);
    const { transaction } = await prepare(alice, escrow, '0.1');
    // Signed by Bob's key in Alice's slot: the wallet's signature must verify.
    const forged = Buffer.from(await signBase64(alice.wallet, transaction), 'base64');
    const bobs = Buffer.from(
      await signedOwnTransfer(ctx.chain, bob.wallet, { to: escrow, sol: '0.1' }),
      'base64',
    );
    bobs.subarray(1, 65).copy(forged, 1);
    await expectRefused(
      () => post('/api/send-transaction', { signedTransaction: forged.toString('base64') }, alice.token),
      400,
      'The transaction is not correctly signed by your wallet',
    );
    expect(await balanceOf(escrow)).toBe(0n);
  });

  it('hands out a deposit only the wallet signs: the backer lends its own receipt’s rent', async () => {
    // Neither a new vault (its creator) nor a first deposit (its backer, decision 058) carries a
    // signature of DarePool's: broadcast by anyone, neither costs the platform a lamport.
    const { dare } = await createDare(alice, '0.1', { title: 'Wallet-signed deposit' });
    const platformBefore = await balanceOf(platform.rentPayer);
    const { transaction } = await prepare(bob, dare.escrowWallet, '0.1');
    const handedOut = Buffer.from(transaction, 'base64');
    // One signature slot, the wallet's, empty until it signs.
    expect(handedOut[0]).toBe(1);
    expect(handedOut.subarray(1, 65).every((byte) => byte === 0)).toBe(true);
    const signed = await signBase64(bob.wallet, transaction);
    const sent = await post('/api/send-transaction', { signedTransaction: signed }, bob.token);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await vaultOf(dare.escrowWallet)).toMatchObject({ total: 200_000_000n, receiptCount: 2 });
    expect(await receiptOf(dare.escrowWallet, bob.wallet.address)).toMatchObject({
      amount: 100_000_000n,
      rentPayer: bob.wallet.address,
    });
    expect(await balanceOf(platform.rentPayer)).toBe(platformBefore);
    const res = await post(
      `/api/dares/${dare.id}/add-pool`,
      { amount: '0.1', userWallet: bob.wallet.address, transactionSignature: sent.json().signature },
      bob.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().totalPool).toBe('0.2');
  });

  it('relays an intent once: the same signed transaction again gets the same signature, nothing is sent twice', async () => {
    const escrow = await reserveEscrow(alice);
    const { transaction } = await prepare(alice, escrow, '0.1');
    const signed = await signBase64(alice.wallet, transaction);
    const before = await balanceOf(alice.wallet.address);
    const first = await post('/api/send-transaction', { signedTransaction: signed }, alice.token);
    expect(first.statusCode, first.body).toBe(200);
    const books1 = await books();
    const second = await post('/api/send-transaction', { signedTransaction: signed }, alice.token);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().signature).toBe(first.json().signature);
    expect(await books()).toEqual(books1);
    expect(before - (await balanceOf(alice.wallet.address))).toBe(
      100_000_000n + vaultRent + receiptRent + CREATE_VAULT_FEE,
    );
    expect(await vaultOf(escrow)).toMatchObject({ total: 100_000_000n });
    expect(await balanceOf(escrow)).toBe(vaultRent + 100_000_000n);
    const [intent] = await ctx.database.db
      .select()
      .from(paymentIntents)
      .where(eq(paymentIntents.signature, first.json().signature));
    expect(intent).toMatchObject({
      relaySignature: first.json().signature,
      programInstruction: 'create_vault',
      vaultKind: 'community',
    });
    expect(intent!.relayedAt).not.toBeNull();
    // Once credited, the intent is closed: the relay no longer knows it.
    const credited = await post(
      '/api/dares',
      dareBody(
        alice.wallet,
        { escrow, reference: '', signature: first.json().signature, deadline: inDays(7) },
        '0.1',
      ),
      alice.token,
    );
    expect(credited.statusCode, credited.body).toBe(201);
    await expectRefused(
      () => post('/api/send-transaction', { signedTransaction: signed }, alice.token),
      400,
      'This transaction was not prepared by DarePool for your account',
    );
  });
});
