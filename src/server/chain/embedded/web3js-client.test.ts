/**
 * The embedded chain driven by @solana/web3.js 1.x, a client nobody here wrote: what wallets,
 * Anchor and most scripts use. Everything goes over the served HTTP RPC and WebSocket PubSub.
 */

import { getBase58Decoder } from '@solana/kit';
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  type Logs,
  PublicKey,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
  TransactionExpiredBlockheightExceededError,
  TransactionInstruction,
} from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainPort } from '#server/chain/port';
import { createEmbeddedChain } from '.';

const MEMO = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const TOKEN = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');

let chain: ChainPort;
let connection: Connection;
let payer: Keypair;
/** HTTP requests web3.js has sent and not yet had answered. */
let requestsInFlight = 0;
const countedFetch: typeof fetch = async (input, init) => {
  requestsInFlight++;
  try {
    return await fetch(input, init);
  } finally {
    requestsInFlight--;
  }
};

beforeAll(async () => {
  chain = await createEmbeddedChain({
    stateDir: null,
    rpcServer: { host: '127.0.0.1', port: 0 },
    testControls: true,
  });
  const served = chain.rpcServer;
  if (!served?.serving) throw new Error('the chain RPC is not served');
  connection = new Connection(served.httpUrl, {
    commitment: 'confirmed',
    wsEndpoint: served.wsUrl,
    fetch: countedFetch,
  });
  payer = Keypair.generate();
  // Airdrop, confirmed through signatureSubscribe on the WebSocket (web3.js's own strategy).
  const signature = await connection.requestAirdrop(payer.publicKey, 10 * LAMPORTS_PER_SOL);
  const latest = await connection.getLatestBlockhash();
  const confirmed = await connection.confirmTransaction({ signature, ...latest });
  expect(confirmed.value.err).toBeNull();
}, 60_000);

afterAll(async () => {
  // web3.js's confirmTransaction leaves its last status poll in flight after it settles: wait for
  // it to be answered before the chain closes.
  while (requestsInFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  await chain?.close();
});

/** web3.js's own record of its subscriptions (no public API says when the node has answered one). */
function subscriptionStates(): string[] {
  const internal = connection as unknown as { _subscriptionsByHash: Record<string, { state: string }> };
  return Object.values(internal._subscriptionsByHash).map((subscription) => subscription.state);
}

/** Waits for the first event a subscription delivers, failing after a few seconds. */
function nextEvent<T>(
  subscribe: (deliver: (event: T) => void) => number,
  unsubscribe: (id: number) => Promise<void>,
) {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no notification within 10 s')), 10_000);
    const id = subscribe((event) => {
      clearTimeout(timer);
      void unsubscribe(id);
      resolve(event);
    });
  });
}

describe('@solana/web3.js 1.x against the embedded chain', () => {
  it('airdrops, transfers with a memo, and reads the transaction back in json and jsonParsed', async () => {
    expect(await connection.getBalance(payer.publicKey)).toBe(10 * LAMPORTS_PER_SOL);
    const to = Keypair.generate().publicKey;
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: LAMPORTS_PER_SOL }),
      new TransactionInstruction({ programId: MEMO, keys: [], data: Buffer.from('dare 42: stake') }),
    );
    const signature = await sendAndConfirmTransaction(connection, tx, [payer]);
    expect(await connection.getBalance(to)).toBe(LAMPORTS_PER_SOL);

    const raw = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(raw?.meta?.err).toBeNull();
    expect(raw?.meta?.fee).toBe(5000);
    expect(raw?.transaction.message.staticAccountKeys.map(String)).toContain(to.toBase58());

    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(parsed?.transaction.message.instructions).toEqual([
      expect.objectContaining({
        program: 'system',
        parsed: {
          type: 'transfer',
          info: {
            source: payer.publicKey.toBase58(),
            destination: to.toBase58(),
            lamports: LAMPORTS_PER_SOL,
          },
        },
      }),
      expect.objectContaining({ program: 'spl-memo', parsed: 'dare 42: stake' }),
    ]);

    const [found] = await connection.getSignaturesForAddress(to);
    expect(found).toMatchObject({ signature, err: null, memo: '[14] dare 42: stake' });

    // The block of the slot that holds it.
    const block = await connection.getBlock(raw!.slot, { maxSupportedTransactionVersion: 0 });
    expect(block?.transactions.map((entry) => entry.transaction.signatures[0])).toEqual([signature]);
    expect(block?.blockTime).toBe(raw!.blockTime);
    expect(await connection.getBlockTime(raw!.slot)).toBe(raw!.blockTime);
    expect(await connection.getBlocks(raw!.slot, raw!.slot)).toEqual([raw!.slot]);
  });

  it('delivers onLogs (all, mentions) and onAccountChange and onProgramAccountChange notifications', async () => {
    const to = Keypair.generate().publicKey;
    const mentions = nextEvent<Logs>(
      (deliver) => connection.onLogs(to, (logs) => deliver(logs)),
      (id) => connection.removeOnLogsListener(id),
    );
    const all = nextEvent<Logs>(
      (deliver) => connection.onLogs('all', (logs) => deliver(logs)),
      (id) => connection.removeOnLogsListener(id),
    );
    const account = nextEvent<number>(
      (deliver) => connection.onAccountChange(to, (info) => deliver(info.lamports)),
      (id) => connection.removeAccountChangeListener(id),
    );
    const program = nextEvent<string>(
      (deliver) =>
        connection.onProgramAccountChange(
          SystemProgram.programId,
          (info) => deliver(info.accountId.toBase58()),
          {
            filters: [{ dataSize: 0 }, { memcmp: { offset: 0, bytes: '' } }],
          },
        ),
      (id) => connection.removeProgramAccountChangeListener(id),
    );
    // The node has answered all four subscriptions before the transfer.
    await expect
      .poll(() => {
        const states = subscriptionStates();
        return (
          states.filter((state) => state === 'subscribed').length >= 4 &&
          !states.some((state) => state === 'pending' || state === 'subscribing')
        );
      })
      .toBe(true);
    const signature = await sendAndConfirmTransaction(
      connection,
      new Transaction().add(
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 5_000_000 }),
      ),
      [payer],
    );
    const logs = await mentions;
    expect(logs).toEqual({
      signature,
      err: null,
      logs: expect.arrayContaining([
        expect.stringMatching(/^Program 11111111111111111111111111111111 success/),
      ]),
    });
    expect((await all).signature).toBe(signature);
    expect(await account).toBe(5_000_000);
    expect([payer.publicKey.toBase58(), to.toBase58()]).toContain(await program);
  });

  it('finds program accounts with filters and token accounts by owner (both token programs)', async () => {
    const owner = Keypair.generate();
    const mint = Keypair.generate();
    const tokenAccount = Keypair.generate();
    const rentMint = await connection.getMinimumBalanceForRentExemption(82);
    const rentAccount = await connection.getMinimumBalanceForRentExemption(165);
    const initializeMint2 = Buffer.concat([
      Buffer.from([20, 6]),
      mint.publicKey.toBuffer(),
      Buffer.from([0]),
    ]);
    const initializeAccount3 = Buffer.concat([Buffer.from([18]), owner.publicKey.toBuffer()]);
    const mintTo = Buffer.alloc(9);
    mintTo.writeUInt8(7, 0);
    mintTo.writeBigUInt64LE(2_500_000n, 1);
    await sendAndConfirmTransaction(
      connection,
      new Transaction().add(
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: mint.publicKey,
          lamports: rentMint,
          space: 82,
          programId: TOKEN,
        }),
        new TransactionInstruction({
          programId: TOKEN,
          keys: [{ pubkey: mint.publicKey, isSigner: false, isWritable: true }],
          data: initializeMint2,
        }),
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: tokenAccount.publicKey,
          lamports: rentAccount,
          space: 165,
          programId: TOKEN,
        }),
        new TransactionInstruction({
          programId: TOKEN,
          keys: [
            { pubkey: tokenAccount.publicKey, isSigner: false, isWritable: true },
            { pubkey: mint.publicKey, isSigner: false, isWritable: false },
          ],
          data: initializeAccount3,
        }),
        new TransactionInstruction({
          programId: TOKEN,
          keys: [
            { pubkey: mint.publicKey, isSigner: false, isWritable: true },
            { pubkey: tokenAccount.publicKey, isSigner: false, isWritable: true },
            { pubkey: mint.publicKey, isSigner: true, isWritable: false },
          ],
          data: mintTo,
        }),
      ),
      [payer, mint, tokenAccount],
    );

    const byFilter = await connection.getProgramAccounts(TOKEN, {
      filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: owner.publicKey.toBase58() } }],
    });
    expect(byFilter.map((entry) => entry.pubkey.toBase58())).toEqual([tokenAccount.publicKey.toBase58()]);

    const { value: accounts } = await connection.getParsedTokenAccountsByOwner(owner.publicKey, {
      programId: TOKEN,
    });
    expect(accounts).toHaveLength(1);
    expect(accounts[0]!.account.data).toEqual({
      program: 'spl-token',
      parsed: {
        type: 'account',
        info: {
          isNative: false,
          mint: mint.publicKey.toBase58(),
          owner: owner.publicKey.toBase58(),
          state: 'initialized',
          tokenAmount: { amount: '2500000', decimals: 6, uiAmount: 2.5, uiAmountString: '2.5' },
        },
      },
      space: 165,
    });
    const byMint = await connection.getTokenAccountsByOwner(owner.publicKey, { mint: mint.publicKey });
    expect(byMint.value.map((entry) => entry.pubkey.toBase58())).toEqual([tokenAccount.publicKey.toBase58()]);
    // Token-2022, and an owner with no tokens at all: empty lists, not errors.
    const token2022 = new PublicKey('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
    expect(
      (await connection.getTokenAccountsByOwner(owner.publicKey, { programId: token2022 })).value,
    ).toEqual([]);
    expect((await connection.getTokenAccountsByOwner(payer.publicKey, { programId: TOKEN })).value).toEqual(
      [],
    );
  });

  it('parses sysvars and names a real version', async () => {
    const clock = await connection.getParsedAccountInfo(
      new PublicKey('SysvarC1ock11111111111111111111111111111111'),
    );
    const info = (clock.value!.data as { parsed: { type: string; info: Record<string, number> } }).parsed;
    expect(info.type).toBe('clock');
    // Slots move every 400 ms: the Clock's slot is the one current when it was read.
    expect(Math.abs(info.info.slot! - (await connection.getSlot()))).toBeLessThanOrEqual(2);
    expect(info.info.epoch).toBe((await connection.getEpochInfo()).epoch);
    expect(Math.abs(info.info.unixTimestamp! - Date.now() / 1000)).toBeLessThan(5);
    expect((await connection.getVersion())['solana-core']).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('expires a blockhash after 150 slots: web3.js gives up on it and the chain refuses it', async () => {
    const latest = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, ...latest }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 1,
      }),
    );
    tx.sign(payer);
    // 61 s is 152 slots; a burst of earlier transactions may have put the chain a few slots ahead of
    // the clock (one transaction per slot), so move on until the block height is past the window.
    await chain.testControls!.warp(61);
    while ((await connection.getBlockHeight()) <= latest.lastValidBlockHeight)
      await chain.testControls!.warp(10);
    expect(await connection.isBlockhashValid(latest.blockhash)).toMatchObject({ value: false });
    await expect(connection.sendRawTransaction(tx.serialize())).rejects.toThrow(/Blockhash not found/);
    // A signature that never lands: web3.js's blockheight strategy calls it expired, no timeout.
    const never = await connection
      .confirmTransaction({ signature: getBase58Decoder().decode(tx.signature!), ...latest })
      .catch((error: unknown) => error);
    expect(never).toBeInstanceOf(TransactionExpiredBlockheightExceededError);
  });
});
