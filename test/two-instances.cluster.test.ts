import { randomBytes } from 'node:crypto';
import {
  type Address,
  generateKeyPair,
  getAddressFromPublicKey,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  partiallySignTransaction,
  type Signature,
} from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solToLamports } from '#contract/money';
import { RECEIPT_SIZE } from '#server/chain/escrow-program/layout';
import { VAULT_V2_SIZE } from '#server/chain/escrow-program/v2/layout';
import { READ_CACHE_MAX_AGE_MS } from '#server/plugins/read-cache';
import { call, createDareOverHttp, request, submitOverHttp } from '../e2e/fixtures/http-client';
import { connectChat, isChat, isPresence } from './helpers/chat';
import {
  type Instance,
  type ProcessCluster,
  startProcessCluster,
  type WalletUser,
} from './helpers/process-cluster';

/**
 * The two-instance tier: two real server processes (`npm start`'s command) behind an imaginary load
 * balancer, on one PostgreSQL, one Redis, one S3 server and one chain (`npm run localnet`, a third
 * process), with the same master seed. Everything goes through HTTP and WebSocket, as clients and a
 * load balancer see it; the database is only touched to age a deadline (the processes run on real
 * time). Tests run in order: the last one kills instance A.
 */
const FAILED_LOGINS = 6;
/** How often each instance runs the refund and payout-recovery job. */
const JOB_INTERVAL_MS = 300;

let cluster: ProcessCluster;
let a: Instance;
let b: Instance;
let moderator: WalletUser;
let creator: WalletUser;

beforeAll(async () => {
  const adminKeys = await generateKeyPair();
  const adminWallet = await getAddressFromPublicKey(adminKeys.publicKey);
  cluster = await startProcessCluster({
    adminWallets: [adminWallet],
    env: {
      // The job's 'skipped: another instance is running it' line is a debug line.
      LOG_LEVEL: 'debug',
      PAYOUT_JOB_INTERVAL_SECONDS: String(JOB_INTERVAL_MS / 1000),
      RATE_LIMIT_FAILED_LOGINS: String(FAILED_LOGINS),
    },
  });
  ({ a, b } = cluster);
  [moderator, creator] = await Promise.all([
    cluster.newUser(b, 'moderator', { sol: '0', keys: adminKeys }),
    cluster.newUser(a, 'creator', { sol: '5' }),
  ]);
});
afterAll(async () => {
  await cluster?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** A v2 entry's rent (144 bytes) and fee: what an entrant's wallet pays to enter (decision 034). */
const ENTRY_RENT = 1_893_120n;
const ENTRY_COST_SOL = '0.00189812';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until `done` holds (or `timeoutMs` passes) and returns the last value read. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await sleep(50);
    value = await read();
  }
  return value;
}

/** An MP4 header ('ftyp' box) followed by random bytes up to `size`. */
function mp4(size: number): Buffer {
  const file = randomBytes(size);
  Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]).copy(file);
  return file;
}

/**
 * A proof with an https link, approved by the moderator and named winner by the moderator's own
 * wallet (the vault's judge: a propose built by B, signed by the wallet, relayed by A), the chain's
 * clock then moved past the payout window: the dare's prize claim, due.
 */
async function winningSubmission(dare: { id: number }, winner: WalletUser) {
  // The winner's wallet signs the entry with the proof: the program pays only entrants.
  const submission = await submitOverHttp(a, winner, dare.id, {
    videoUrl: `https://videos.example/${winner.username}.mp4`,
    description: 'Done, on camera',
  });
  await request(b, 'PUT', `/api/admin/submissions/${submission.id}`, moderator.token, { status: 'approved' });
  const markWinner = `/api/admin/submissions/${submission.id}/mark-winner`;
  const { transaction } = await call<{ transaction: string }>(
    b,
    markWinner,
    { dareId: dare.id },
    moderator.token,
  );
  const propose = getTransactionDecoder().decode(Buffer.from(transaction, 'base64'));
  const signedTransaction = getBase64EncodedWireTransaction(
    await partiallySignTransaction([moderator.keys], propose),
  );
  await call(a, markWinner, { dareId: dare.id, signedTransaction }, moderator.token);
  const [claim] = await request<{ id: number; amount: string; status: string }[]>(
    b,
    'GET',
    '/api/claims',
    winner.token,
  );
  return { submission, claim: claim! };
}

describe('two server processes on one PostgreSQL, Redis, S3 server and chain', () => {
  it('plays a video uploaded through A with ranges through B', async () => {
    const MiB = 1024 * 1024;
    const dare = await createDareOverHttp(a, creator, { title: 'Film it', stake: '0.1' });
    const filmer = await cluster.newUser(b, 'filmer', { sol: ENTRY_COST_SOL });
    // Over one 5 MiB part: a multipart upload into the bucket.
    const video = mp4(6 * MiB);
    const form = new FormData();
    form.append('dareId', String(dare.id));
    form.append('video', new Blob([new Uint8Array(video)], { type: 'video/mp4' }), 'proof.mp4');
    const uploaded = await fetch(new URL('/api/upload-video', a.baseUrl), {
      method: 'POST',
      body: form,
      headers: bearer(filmer.token),
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    const { url } = (await uploaded.json()) as { url: string };
    const key = url.split('/').at(-1)!;
    expect(await cluster.s3.contents('videos/')).toEqual([`object:videos/${key}`]);
    const submission = await submitOverHttp(a, filmer, dare.id, {
      videoUrl: url,
      description: 'Uploaded through A',
    });

    // Pending: its author plays it, through the other instance.
    const play = (range: string) =>
      fetch(new URL(`/api/video-proxy/${submission.id}`, b.baseUrl), {
        headers: { ...bearer(filmer.token), range },
      });
    const head = await play('bytes=4-11');
    expect([head.status, head.headers.get('content-range'), await head.text()]).toEqual([
      206,
      `bytes 4-11/${video.length}`,
      'ftypisom',
    ]);
    // Across the boundary between the two parts it was uploaded in.
    const start = 5 * MiB - 100;
    const middle = await play(`bytes=${start}-${start + 199}`);
    expect([middle.status, middle.headers.get('content-range')]).toEqual([
      206,
      `bytes ${start}-${start + 199}/${video.length}`,
    ]);
    expect(Buffer.from(await middle.arrayBuffer()).equals(video.subarray(start, start + 200))).toBe(true);
    const tail = await play('bytes=-1');
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(video.subarray(-1))).toBe(true);
  });

  it('counts failed logins on A and B together: the limit trips at the same total as on one instance', async () => {
    const user = await cluster.newUser(a, 'guarded', { sol: '0' });
    const login = (via: Instance, password: string) =>
      fetch(new URL('/api/auth/login', via.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: user.username, password }),
      });
    // Half the guesses on each instance: each alone would allow FAILED_LOGINS more.
    const statuses: number[] = [];
    for (let guess = 0; guess < FAILED_LOGINS; guess++) {
      statuses.push((await login(guess % 2 === 0 ? a : b, `wrong-${guess}`)).status);
    }
    expect(statuses).toEqual(new Array(FAILED_LOGINS).fill(401));

    for (const via of [a, b]) {
      const refused = await login(via, 'wrong-again');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Even the right password, on either instance: this address is locked out of the account.
    expect((await login(b, user.password)).status).toBe(429);
  });

  it("shows a dare created on A in B's list before B's cached copy would have expired", async () => {
    // B's list is cached: the second read is served from memory (same ETag).
    const first = await fetch(new URL('/api/dares', b.baseUrl));
    const again = await fetch(new URL('/api/dares', b.baseUrl));
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));

    const dare = await createDareOverHttp(a, creator, { title: 'Written on A', stake: '0.1' });
    const listIds = async () =>
      ((await (await fetch(new URL('/api/dares', b.baseUrl))).json()) as { id: number }[]).map(
        ({ id }) => id,
      );
    // Waits for A's notice to reach B, not for a time: the only bound is the cache's own age, past
    // which B would show the dare without being told.
    await expect.poll(listIds, { timeout: READ_CACHE_MAX_AGE_MS, interval: 10 }).toContain(dare.id);
  });

  it('delivers chat sent to A to a socket on B', async () => {
    const speaker = await cluster.newUser(a, 'speaker', { sol: '0' });
    const listener = await connectChat(b.wsUrl);
    const talker = await connectChat(a.wsUrl);
    try {
      talker.send({ type: 'auth', token: speaker.token });
      await talker.next((frame) => frame.type === 'auth' && frame.ok);
      // One socket per instance in the global room: each counts both.
      await listener.next(isPresence(null, 2));
      await talker.next(isPresence(null, 2));
      talker.send({ type: 'chat_message', message: 'from instance A', dareId: null });
      expect(await listener.next(isChat('from instance A'))).toMatchObject({
        message: { username: 'speaker', messageType: 'user' },
      });
      const history = await request<{ message: string }[]>(b, 'GET', '/api/chat-messages');
      expect(history.filter(({ message }) => message === 'from instance A')).toHaveLength(1);
    } finally {
      listener.close();
      talker.close();
    }
  });

  it('refunds an expired dare exactly once, on one instance, while both run the job', async () => {
    const payer = await cluster.newUser(b, 'payer', { sol: '1' });
    const dare = await createDareOverHttp(b, payer, { title: 'Nobody will win this', stake: '0.2' });
    const afterStake = await cluster.localnet.balance(payer.address);
    // The stake, and the rent the creator lent its v2 vault and receipt (back as they close).
    const rent = async (size: number) =>
      cluster.localnet.rpc.getMinimumBalanceForRentExemption(BigInt(size)).send();
    const back = solToLamports('0.2') + (await rent(VAULT_V2_SIZE)) + (await rent(RECEIPT_SIZE));
    const sentBefore = { A: a.gate.sends.length, B: b.gate.sends.length };
    // Each transfer now takes 1.5 s to reach the chain: the run sending the refund holds the job's
    // lock that long, several of the other instance's runs fall inside it.
    const HOLD_MS = 1_500;
    a.gate.delaySends(HOLD_MS);
    b.gate.delaySends(HOLD_MS);
    try {
      // Past its deadline and the 7 days of moderation: due for a refund at the next run.
      await cluster.sql(`update dares set deadline = now() - interval '8 days' where id = $1`, [dare.id]);
      const refunded = await until(
        () => cluster.localnet.balance(payer.address),
        (balance) => balance >= afterStake + back,
      );
      expect(refunded - afterStake).toBe(back);
      // A few more runs on both instances: nothing more may go out.
      await sleep(4 * JOB_INTERVAL_MS + HOLD_MS);
    } finally {
      a.gate.delaySends(0);
      b.gate.delaySends(0);
    }

    const sent = [
      ...a.gate.sends.slice(sentBefore.A).map((send) => ({ ...send, by: a })),
      ...b.gate.sends.slice(sentBefore.B).map((send) => ({ ...send, by: b })),
    ];
    // Two transactions in all, the cancel and the refund (one each on program v2: decision 032),
    // from one instance.
    expect(sent).toHaveLength(2);
    const [cancel, refund] = sent as [(typeof sent)[number], (typeof sent)[number]];
    expect(refund.by).toBe(cancel.by);
    const other = refund.by === a ? b : a;
    // While that run held the lock, the other instance's runs found it taken and skipped.
    const skipped = other
      .logs()
      .filter(
        (line) =>
          line.msg === 'payouts job skipped: another instance is running it' &&
          Number(line.time) >= cancel.at &&
          Number(line.time) <= refund.at + HOLD_MS,
      );
    expect(skipped.length).toBeGreaterThan(0);

    expect((await request<{ status: string }>(a, 'GET', `/api/dares/${dare.id}`)).status).toBe('cancelled');
    const listed = await request<{ id: number; refunds: { signature: string; amount: string }[] }[]>(
      b,
      'GET',
      '/api/admin/dares',
      moderator.token,
    );
    expect(listed.find(({ id }) => id === dare.id)?.refunds).toEqual([
      { signature: refund.signature, amount: '0.2', walletAddress: payer.address },
    ]);
    expect(await cluster.localnet.balance(payer.address)).toBe(afterStake + back);
  });

  // Last: the instance that sends the payout does not come back.
  it('pays a claim exactly once when the instance that sent it is killed after recording and before booking it, the other recovering', async () => {
    const dare = await createDareOverHttp(b, creator, { title: 'Cut short', stake: '0.3' });
    // The winner holds exactly its entry's cost: afterwards it holds the prize and its entry's rent.
    const winner = await cluster.newUser(a, 'winner', { sol: ENTRY_COST_SOL });
    const { submission, claim } = await winningSubmission(dare, winner);
    expect(claim).toMatchObject({ amount: '0.3', status: 'pending' });

    // Once the window passes, the winner's claim on A or either instance's payout job records the
    // execute and sends it: whichever sends first, its gate holds it on its way to the chain.
    const holds = [a, b].map((instance) => instance.gate.holdNextSend().then((send) => ({ instance, send })));
    await cluster.localnet.warp(3601);
    const claimOnA = fetch(new URL('/api/claims/prize', a.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(winner.token) },
      body: JSON.stringify({ submissionId: submission.id }),
    }).then(
      (res) => `answered ${res.status}`,
      () => 'no answer',
    );
    const { instance: sender, send: payout } = await Promise.race(holds);
    const survivor = sender === a ? b : a;
    // The survivor's next send (a record's close after the payout) goes on to the chain untouched.
    void holds[survivor === a ? 0 : 1]!.then(({ send }) => send.passThrough());
    // From here the sender hears nothing more from the chain (not even through its own job), so it
    // cannot learn that the transfer lands, and is killed before it could book it.
    sender.gate.cut();
    await payout.deliverToChain();
    process.kill(sender.pid, 'SIGKILL');
    expect(await sender.exited).toEqual({ code: null, signal: 'SIGKILL' });
    if (sender === a) expect(await claimOnA).toBe('no answer');

    // The survivor's job finds the transfer the sender recorded, sees it landed and books it,
    // without paying again.
    const claims = () =>
      request<{ id: number; status: string; transactionHash: string | null }[]>(
        survivor,
        'GET',
        '/api/claims',
        winner.token,
      );
    const settled = await until(claims, (list) => list[0]?.status === 'paid');
    expect(settled).toEqual([
      expect.objectContaining({ id: claim.id, status: 'paid', transactionHash: payout.signature }),
    ]);
    // The entry's close, its own transaction after the payout (decision 032), returns its rent.
    const prizeAndRent = solToLamports('0.3') + ENTRY_RENT;
    expect(
      await until(
        () => cluster.localnet.balance(winner.address),
        (held) => held === prizeAndRent,
      ),
    ).toBe(prizeAndRent);
    const received = await cluster.localnet.rpc
      .getSignaturesForAddress(winner.address as Address, { commitment: 'confirmed' })
      .send();
    // The winner's wallet is in five transactions: its funding (the entry's cost), its entry, the
    // judge's propose naming it, the payout and its entry's close. Apart from the funding, only the
    // payout and the close paid it.
    const paidIt: string[] = [];
    for (const { signature } of received) {
      const tx = await cluster.localnet.rpc
        .getTransaction(signature, {
          commitment: 'confirmed',
          encoding: 'json',
          maxSupportedTransactionVersion: 0,
        })
        .send();
      const index = tx!.transaction.message.accountKeys.indexOf(winner.address as Address);
      if (tx!.meta!.postBalances[index]! > tx!.meta!.preBalances[index]!) paidIt.push(signature);
    }
    expect(received).toHaveLength(5);
    expect(paidIt).toHaveLength(3);
    expect(paidIt).toContain(payout.signature as Signature);

    const again = await fetch(new URL('/api/claims/prize', survivor.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(winner.token) },
      body: JSON.stringify({ submissionId: submission.id }),
    });
    // Claimed again, a paid judged prize answers its paid claim, and nothing is sent.
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({
      id: claim.id,
      status: 'paid',
      transactionHash: payout.signature,
    });

    // Every escrow's balance on chain equals the ledger (`npm run reconcile`, as operators run it).
    const reconcile = await cluster.runScript('reconcile.ts');
    expect(reconcile, reconcile.output).toMatchObject({ code: 0 });
    expect(reconcile.output).toContain('No difference.');
  });
});
