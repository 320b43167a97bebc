/**
 * Notifications (issue 35, docs/decisions/074-notifications.md): written in the event's own
 * transaction, read in the app and live on the user's sockets, mailed to a real SMTP server started
 * here (only to a verified address, with one-click unsubscribe), and posted to webhook receivers
 * started here that check the HMAC; retries, exactly once, a crash between send and record.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '#contract/time';
import { readKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { getVetoInstruction } from '#server/chain/escrow-program/v2/instructions';
import { deliverDue } from '#server/features/notifications/deliver';
import { createMailTokens } from '#server/features/notifications/tokens';
import { GUARDIAN_KEYPAIR_FILE } from '#server/judging-keys';
import { startSmtpCapture } from '#test/support/smtp-capture';
import { warpChain } from './helpers/chain-clock';
import { connectChat, listen } from './helpers/chat';
import { enterAndSubmit } from './helpers/entries';
import { nameWinner, sendInstructions } from './helpers/judging';
import { endLiveMajorDare, payStake } from './helpers/money';
import { api, contribute, createFundedDare } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const SECRET = 'webhook-secret-for-tests';

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  answered: number;
}
const hooks: Received[] = [];
let failNext = 0;
const receiver = http.createServer((request, response) => {
  let raw = '';
  request.on('data', (chunk) => {
    raw += chunk;
  });
  request.on('end', () => {
    const answered = failNext > 0 ? 500 : 200;
    if (failNext > 0) failNext--;
    hooks.push({ headers: request.headers, raw, answered });
    response.writeHead(answered).end();
  });
});

const smtp = await startSmtpCapture();
const { mails } = smtp;

/** A mail's text with quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

const { ctx, actors } = setupApiSuite({
  env: async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookPort = (receiver.address() as AddressInfo).port;
    return {
      PAYOUT_WINDOW_HOURS: '1',
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'DarePool <notify@darepool.test>',
      ALERT_WEBHOOK_URL: `http://127.0.0.1:${hookPort}/hook`,
      ALERT_WEBHOOK_SECRET: SECRET,
      NOTIFY_JOB_INTERVAL_SECONDS: '3600',
    };
  },
  actors: { judge: { admin: true }, creator: {}, backer: {}, walker: {}, loser: {}, stranger: {} },
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await smtp.close();
});

const runJob = () => ctx.app.notificationsJob.runNow();
const notificationsOf = async (token: string) => {
  const res = await api(ctx).get('/api/notifications', token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    items: { id: number; kind: string; title: string; body: string; link: string; dareId: number }[];
    unread: number;
  };
};
const TITLE = 'Jump <b>high</b> & @everyone';
let dare: { id: number; escrowWallet: string; vault: string };
let proofId = 0;

describe('notifications', () => {
  it('verifies an email address only through its mail; a stranger cannot make the platform mail an address again and again', async () => {
    const { backer, creator, walker, stranger } = actors;
    const put = await api(ctx).put('/api/profile/email', { email: 'Backer@Example.test' }, backer.token);
    expect(put.statusCode, put.body).toBe(202);
    expect(put.json()).toMatchObject({ email: { address: 'backer@example.test', verified: false } });
    expect(
      (await api(ctx).put('/api/profile/email', { email: 'not an address' }, backer.token)).statusCode,
    ).toBe(400);

    await runJob();
    const verification = mails.find((mail) => mail.to.includes('backer@example.test'));
    expect(verification).toBeDefined();
    const link = /\/api\/profile\/email\/verify\?token=([A-Za-z0-9_%-]+)/.exec(decoded(verification!.raw));
    expect(link).not.toBeNull();
    // A guessed token verifies nothing.
    expect((await api(ctx).get('/api/profile/email/verify?token=guessed')).statusCode).toBe(400);
    const opened = await api(ctx).get(`/api/profile/email/verify?token=${link![1]}`);
    expect(opened.statusCode).toBe(303);
    expect((await api(ctx).get('/api/profile/notifications', backer.token)).json()).toMatchObject({
      email: { address: 'backer@example.test', verified: true },
      majorDareOptIn: false,
    });
    // The link works once.
    expect((await api(ctx).get(`/api/profile/email/verify?token=${link![1]}`)).statusCode).toBe(400);

    // Per address: after three asks (any accounts) the address gets no more mail today.
    for (const who of [creator, walker])
      expect(
        (await api(ctx).put('/api/profile/email', { email: 'victim@example.test' }, who.token)).statusCode,
      ).toBe(202);
    expect(
      (await api(ctx).put('/api/profile/email', { email: 'VICTIM@example.test' }, stranger.token)).statusCode,
    ).toBe(202);
    const refused = await api(ctx).put('/api/profile/email', { email: 'victim@example.test' }, backer.token);
    expect(refused.statusCode).toBe(429);
    // Per account: five asks an hour.
    for (let i = 0; i < 5; i++)
      await api(ctx).put('/api/profile/email', { email: `s${i}@example.test` }, stranger.token);
    expect(
      (await api(ctx).put('/api/profile/email', { email: 'other@example.test' }, stranger.token)).statusCode,
    ).toBe(429);
  });

  it('tells the author of a reviewed proof, with the rejection reason on its submission; the dare’s people and the webhooks of a named winner, live too', async () => {
    const { judge, creator, backer, walker, loser } = actors;
    dare = await createFundedDare(ctx, creator, '0.2', { title: TITLE });
    await contribute(ctx, backer, dare, '0.1');
    const proof = await enterAndSubmit(ctx, walker, dare.id);
    const bad = await enterAndSubmit(ctx, loser, dare.id);
    proofId = proof.id;

    const approved = await api(ctx).put(
      `/api/admin/submissions/${proof.id}`,
      { status: 'approved' },
      judge.token,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    const rejected = await api(ctx).put(
      `/api/admin/submissions/${bad.id}`,
      { status: 'rejected', reason: '  The video does not show the jump  ' },
      judge.token,
    );
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({ rejection_reason: 'The video does not show the jump' });
    expect((await notificationsOf(walker.token)).items[0]).toMatchObject({
      kind: 'proof-approved',
      dareId: dare.id,
      link: `/dare/${dare.id}`,
    });
    const [rejectedNote] = (await notificationsOf(loser.token)).items;
    expect(rejectedNote).toMatchObject({ kind: 'proof-rejected' });
    expect(rejectedNote!.body).toContain('The video does not show the jump');
    expect(rejectedNote!.body).toContain('cannot be submitted');
    // The author reads the reason where the dare page reads its own proof; nobody else sees the proof.
    const own = await api(ctx).get(`/api/submissions/${dare.id}`, loser.token);
    expect(own.json().find((s: { id: number }) => s.id === bad.id)).toMatchObject({
      status: 'rejected',
      rejection_reason: 'The video does not show the jump',
    });
    const others = await api(ctx).get(`/api/submissions/${dare.id}`, backer.token);
    expect(others.json().find((s: { id: number }) => s.id === bad.id)).toBeUndefined();

    // The backer's socket hears the named winner live.
    const socket = await connectChat(await listen(ctx.app));
    socket.send({ type: 'auth', token: backer.token });
    await socket.next((frame) => frame.type === 'auth');
    failNext = 2;
    const proposal = await nameWinner(ctx, judge, proof.id, dare.id);
    const live = await socket.next((frame) => frame.type === 'notification');
    socket.close();
    expect(live).toMatchObject({
      type: 'notification',
      notification: { kind: 'winner-proposed', dareId: dare.id, readAt: null },
    });

    for (const who of [creator, backer, walker, loser]) {
      const list = await notificationsOf(who.token);
      expect(list.items.filter((n) => n.kind === 'winner-proposed')).toHaveLength(1);
    }
    const backerList = await notificationsOf(backer.token);
    expect(backerList.items[0]!.body).toContain(proposal.executesAt);
    expect(backerList.items[0]!.body).toContain('veto');
    expect(backerList.unread).toBe(1);
    expect((await api(ctx).post('/api/notifications/read', {}, backer.token)).json()).toEqual({ unread: 0 });

    // The webhook: refused twice, retried with backoff, delivered once; same id; signature checks.
    await runJob();
    await runJob();
    expect(hooks.filter((h) => h.answered === 500)).toHaveLength(1);
    ctx.clock.advance(31_000);
    await runJob();
    ctx.clock.advance(61_000);
    await runJob();
    ctx.clock.advance(3_600_000);
    await runJob();
    const proposedHooks = hooks.filter((h) => JSON.parse(h.raw).event === 'winner-proposed');
    expect(proposedHooks.map((h) => h.answered)).toEqual([500, 500, 200]);
    const ids = new Set(proposedHooks.map((h) => h.headers['x-darepool-delivery']));
    expect(ids.size).toBe(1);
    for (const hook of proposedHooks) {
      const expected = `sha256=${createHmac('sha256', SECRET).update(hook.raw).digest('hex')}`;
      expect(hook.headers['x-darepool-signature']).toBe(expected);
    }
    const body = JSON.parse(proposedHooks[2]!.raw);
    expect(body).toMatchObject({
      id: [...ids][0],
      event: 'winner-proposed',
      dareId: dare.id,
      vault: dare.escrowWallet,
      winners: [{ wallet: walker.wallet.address, amount: '0.3' }],
      executesAt: proposal.executesAt,
      signature: proposal.signature,
    });

    // Mail: to the verified backer only (the creator's address is unverified), escaped, with unsubscribe.
    const winnerMails = mails.filter((mail) => /winner was named/.test(decoded(mail.raw)));
    expect(winnerMails.map((mail) => mail.to)).toEqual([['backer@example.test']]);
    const raw = decoded(winnerMails[0]!.raw);
    const html = raw.slice(raw.indexOf('Content-Type: text/html'));
    expect(html).toContain('Jump &lt;b&gt;high&lt;/b&gt; &amp; @everyone');
    expect(html).not.toContain('<b>high</b>');
    expect(raw).toMatch(/List-Unsubscribe:\s+<http[^>]+\/api\/notifications\/unsubscribe\?token=/);
    expect(raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');

    const admin = await api(ctx).get('/api/admin/notifications/deliveries', judge.token);
    expect(admin.statusCode).toBe(200);
    expect(admin.json().items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          channel: 'webhook',
          event: 'winner-proposed',
          status: 'delivered',
          attempts: 3,
        }),
        expect.objectContaining({ channel: 'email', event: 'winner-proposed', status: 'delivered' }),
      ]),
    );
    expect((await api(ctx).get('/api/admin/notifications/deliveries', backer.token)).statusCode).toBe(403);
  });

  it('pays the winner and tells it; one-click unsubscribe stops a kind’s mail', async () => {
    const { walker, backer } = actors;
    const winnerMail = mails.find((mail) => /winner was named/.test(decoded(mail.raw)))!;
    const unsubscribe = /List-Unsubscribe:\s+<(http[^>]+)>/.exec(decoded(winnerMail.raw))![1]!;
    const url = new URL(unsubscribe);
    const post = await ctx.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(post.statusCode, post.body).toBe(200);
    expect(
      (await api(ctx).get('/api/profile/notifications', backer.token)).json().preferences.email,
    ).toMatchObject({
      'winner-proposed': false,
      'prize-paid': true,
    });
    expect((await api(ctx).get('/api/notifications/unsubscribe?token=1.forged')).statusCode).toBe(400);

    await warpChain(ctx, 3601);
    const paid = await api(ctx).post('/api/claims/prize', { submissionId: proofId }, walker.token);
    expect(paid.statusCode, paid.body).toBeLessThan(300);
    const prize = (await notificationsOf(walker.token)).items.filter((n) => n.kind === 'prize-paid');
    expect(prize).toHaveLength(1);
    expect(prize[0]!.title).toContain('0.3 SOL');
    await runJob();
    const executed = hooks.filter((h) => JSON.parse(h.raw).event === 'payout-executed');
    expect(executed).toHaveLength(1);
    expect(JSON.parse(executed[0]!.raw)).toMatchObject({
      dareId: dare.id,
      winners: [{ wallet: walker.wallet.address, amount: '0.3' }],
    });
  });
});

describe('the other kinds', () => {
  it('a veto, a dare ending within 24 h (once), refunds whoever sent them, a Major Dare to those who opted in', async () => {
    const { judge, creator, backer, walker, stranger } = actors;
    const second = await createFundedDare(ctx, creator, '0.2', { title: 'Second dare' });
    await contribute(ctx, backer, second, '0.05');
    const proof = await enterAndSubmit(ctx, walker, second.id);
    expect(
      (await api(ctx).put(`/api/admin/submissions/${proof.id}`, { status: 'approved' }, judge.token))
        .statusCode,
    ).toBe(200);
    await nameWinner(ctx, judge, proof.id, second.id);
    const guardian = await readKeypairFile(path.join(ctx.dataDir, GUARDIAN_KEYPAIR_FILE));
    await ctx.chain.airdrop(guardian.address, 10_000_000n);
    await sendInstructions(ctx, guardian, [
      getVetoInstruction({ programId: ctx.escrowProgramV2Id, vault: second.vault, guardian }),
    ]);
    await ctx.app.judgingJob.runNow();
    for (const who of [creator, backer, walker])
      expect(
        (await notificationsOf(who.token)).items.filter(
          (n) => n.kind === 'proposal-vetoed' && n.dareId === second.id,
        ),
      ).toHaveLength(1);
    await runJob();
    expect(
      hooks.filter((h) => JSON.parse(h.raw).event === 'proposal-vetoed' && h.answered === 200),
    ).toHaveLength(1);

    // 24 hours before the deadline, once however often the job runs.
    ctx.clock.advance(6 * DAY_MS + 3600 * 1000);
    await runJob();
    await runJob();
    for (const who of [creator, backer, walker])
      expect(
        (await notificationsOf(who.token)).items.filter(
          (n) => n.kind === 'dare-ending' && n.dareId === second.id,
        ),
      ).toHaveLength(1);

    // An admin cancels it: each payer with an account hears its refund.
    const cancelled = await api(ctx).patch(
      `/api/admin/dares/${second.id}/status`,
      { status: 'cancelled' },
      judge.token,
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const refunds = (await notificationsOf(backer.token)).items.filter((n) => n.kind === 'refund-sent');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.title).toContain('0.05 SOL');
    expect((await notificationsOf(creator.token)).items.filter((n) => n.kind === 'refund-sent')).toHaveLength(
      1,
    );

    // A Major Dare opens: only who opted in hears it.
    const optIn = await api(ctx).put(
      '/api/profile/notifications',
      { majorDareOptIn: true, email: { 'dare-ending': false } },
      stranger.token,
    );
    expect(optIn.statusCode).toBe(200);
    expect(optIn.json()).toMatchObject({
      majorDareOptIn: true,
      preferences: { email: { 'dare-ending': false, 'prize-paid': true } },
    });
    await endLiveMajorDare(ctx.app, judge.token);
    const until = new Date(ctx.clock.now.getTime() + 7 * DAY_MS).toISOString();
    const paid = await payStake(ctx.app, judge.token, judge.wallet, '0.5', {
      kind: 'major',
      deadline: until,
    });
    const major = await api(ctx).post(
      '/api/admin/major-dare',
      {
        title: 'Weekly: cold plunge',
        description: 'Five minutes in ice water.',
        category: 'endurance',
        difficulty: 'hard',
        prizeAmount: '0.5',
        deadline: until,
        maxParticipants: 100,
        transactionSignature: paid.signature,
        escrowWalletAddress: paid.escrow,
      },
      judge.token,
    );
    expect(major.statusCode, major.body).toBeLessThan(300);
    expect(
      (await notificationsOf(stranger.token)).items.filter((n) => n.kind === 'major-dare-started'),
    ).toHaveLength(1);
    expect(
      (await notificationsOf(backer.token)).items.filter((n) => n.kind === 'major-dare-started'),
    ).toHaveLength(0);
  });
});

describe('a crash between send and record', () => {
  it('re-sends once, with the same delivery id', async () => {
    const before = hooks.length;
    const { notifyLowBalance } = await import('#server/features/notifications/emit');
    await notifyLowBalance(ctx.database.db, {
      event: 'guardian-low',
      wallet: 'Guardian1111111111111111111111111111111111',
      balanceLamports: 1n,
      minimumLamports: 50_000n,
      now: ctx.clock.now,
    });
    const deps = {
      db: ctx.database.db,
      clock: () => ctx.clock.now,
      config: ctx.config.notifications,
      mailer: null,
      tokens: createMailTokens(new Uint8Array(32)),
      origin: 'http://localhost',
    };
    await deliverDue(deps); // spreads the event to the receiver
    let crashed = false;
    await expect(
      deliverDue({
        ...deps,
        afterSend: () => {
          crashed = true;
          throw new Error('killed after send');
        },
      }),
    ).rejects.toThrow('killed after send');
    expect(crashed).toBe(true);
    // Nothing is due while the dead run's lease holds; after it, sent again and recorded.
    expect((await deliverDue(deps)).claimed).toBe(0);
    ctx.clock.advance(2 * 60 * 1000 + 1);
    expect(await deliverDue(deps)).toEqual({ claimed: 1, sent: 1 });
    ctx.clock.advance(10 * 60 * 1000);
    expect((await deliverDue(deps)).claimed).toBe(0);
    const sent = hooks.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.headers['x-darepool-delivery']).toBe(sent[1]!.headers['x-darepool-delivery']);
    expect(JSON.parse(sent[0]!.raw)).toMatchObject({
      event: 'guardian-low',
      id: sent[0]!.headers['x-darepool-delivery'],
    });
  });
});
