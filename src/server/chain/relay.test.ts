import { createHash } from 'node:crypto';
import {
  appendTransactionMessageInstruction,
  type Blockhash,
  compileTransaction,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  type KeyPairSigner,
  partiallySignTransaction,
  pipe,
  type Rpc,
  type Signature,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  SolanaError,
  type SolanaRpcApi,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Transaction,
} from '@solana/kit';
import { describe, expect, it, vi } from 'vitest';
import { AppError } from '#server/errors';
import { MEMO_PROGRAM } from './memo';
import {
  allSignaturesValid,
  answer,
  confirmSent,
  decodeSigned,
  everySigner,
  messageHash,
  type RelayFailures,
  type RelayFlow,
  relaySigned,
  type SignedTransaction,
  sendAndConfirm,
  transactionId,
} from './relay';

const BLOCKHASH = { blockhash: '11111111111111111111111111111111' as Blockhash, lastValidBlockHeight: 100n };

/** A memo transaction paid by `feePayer` and also signed by `other`; the signatures are as given. */
async function memoTransaction(feePayer: KeyPairSigner, other: KeyPairSigner): Promise<Transaction> {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(feePayer.address, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(BLOCKHASH, m),
    (m) =>
      appendTransactionMessageInstruction(
        {
          programAddress: MEMO_PROGRAM,
          accounts: [{ address: other.address, role: 2 }],
          data: new TextEncoder().encode('relay test'),
        },
        m,
      ),
  );
  return compileTransaction(message);
}

const failures: RelayFailures = {
  refused: () => new AppError('TRANSACTION_FAILED', 'refused in our words'),
  failed: (transactionError) => `failed: ${JSON.stringify(transactionError)}`,
  expired: () => new AppError('BAD_REQUEST', 'expired in our words'),
  unconfirmed: 'unconfirmed in our words',
};

/** An RPC whose send answers with `sendError` (or succeeds) and whose status is `status`. */
function stubRpc(sendError: unknown, status: { err: unknown } | null) {
  const sendTransaction = vi.fn(() => ({
    send: async () => {
      if (sendError) throw sendError;
      return 'sig';
    },
  }));
  const rpc = {
    sendTransaction,
    getSignatureStatuses: () => ({
      send: async () => ({
        value: [status && { ...status, confirmationStatus: 'confirmed', slot: 1n }],
      }),
    }),
    getBlockHeight: () => ({ send: async () => 200n }),
  } as unknown as Rpc<SolanaRpcApi>;
  return { rpc, sendTransaction };
}

/** A send the node answered with `code` as the cause, the way kit wraps a preflight failure. */
function sendRefused(code: typeof SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED | null) {
  return new SolanaError(SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE, {
    accounts: null,
    logs: null,
    returnData: null,
    unitsConsumed: 0n,
    ...(code === null ? {} : { cause: new SolanaError(code) }),
  } as never);
}

describe('the relay of signed transactions', () => {
  it("refuses bytes that are not a transaction with a 400 in the caller's words", () => {
    expect(() => decodeSigned('bm90IGEgdHJhbnNhY3Rpb24=', 'unreadable in our words')).toThrow(
      expect.objectContaining({ status: 400, message: 'unreadable in our words' }),
    );
  });

  it('hashes the message the wallet signed, the same digest the server stored at build time', async () => {
    const [payer, other] = [await generateKeyPairSigner(), await generateKeyPairSigner()];
    const transaction = await memoTransaction(payer, other);
    const signed = decodeSigned(getBase64EncodedWireTransaction(transaction), 'unreadable');
    const expected = createHash('sha256').update(new Uint8Array(transaction.messageBytes)).digest('hex');
    expect(signed.messageHash).toBe(expected);
    expect(messageHash(new Uint8Array(transaction.messageBytes))).toBe(expected);
  });

  it('accepts a transaction only when every signer signed this very message', async () => {
    const [payer, other] = [await generateKeyPairSigner(), await generateKeyPairSigner()];
    const unsigned = await memoTransaction(payer, other);
    const bothSigned = await partiallySignTransaction([payer.keyPair, other.keyPair], unsigned);
    const decode = (t: Transaction) => decodeSigned(getBase64EncodedWireTransaction(t), 'unreadable');
    expect(await allSignaturesValid(decode(bothSigned))).toBe(true);
    // One signature missing, or one made over other bytes, is refused.
    const payerOnly = await partiallySignTransaction([payer.keyPair], unsigned);
    expect(await allSignaturesValid(decode(payerOnly))).toBe(false);
    const forged = {
      ...bothSigned,
      signatures: { ...bothSigned.signatures, [other.address]: bothSigned.signatures[payer.address]! },
    };
    expect(await allSignaturesValid(decode(forged as Transaction))).toBe(false);
    // The id is the fee payer's signature.
    expect(transactionId(bothSigned)).toBe(
      transactionId({
        ...bothSigned,
        signatures: { [payer.address]: bothSigned.signatures[payer.address]! },
      }),
    );
  });

  it("waits for a copy sent before when told to, and refuses it in the caller's words otherwise", async () => {
    const alreadySent = sendRefused(SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED);
    const waiting = stubRpc(alreadySent, { err: null });
    await expect(
      sendAndConfirm(waiting.rpc, 'AA==', 'sig' as Signature, { sentBefore: 'wait' }, failures),
    ).resolves.toBeUndefined();
    const refusing = stubRpc(alreadySent, { err: null });
    await expect(
      sendAndConfirm(refusing.rpc, 'AA==', 'sig' as Signature, { sentBefore: 'refuse' }, failures),
    ).rejects.toMatchObject({ code: 'TRANSACTION_FAILED', message: 'refused in our words' });
    // Any other refusal is the caller's to word, whatever sentBefore says.
    const other = stubRpc(sendRefused(null), { err: null });
    await expect(
      sendAndConfirm(other.rpc, 'AA==', 'sig' as Signature, { sentBefore: 'wait' }, failures),
    ).rejects.toMatchObject({ message: 'refused in our words' });
  });

  it('tells a landed failure, an expired transaction and a missing confirmation apart', async () => {
    const signature = 'sig' as Signature;
    const landedWithError = stubRpc(null, { err: { InstructionError: [0, { Custom: 7 }] } });
    await expect(confirmSent(landedWithError.rpc, signature, failures)).rejects.toMatchObject({
      code: 'TRANSACTION_FAILED',
      message: 'failed: {"InstructionError":[0,{"Custom":7}]}',
      extra: { signature },
    });
    // Never landed, and its blockhash is past (block height 200 > 100): expired, at once.
    const gone = stubRpc(null, null);
    await expect(confirmSent(gone.rpc, signature, failures, 100n)).rejects.toMatchObject({
      message: 'expired in our words',
    });
    const broken = {
      getSignatureStatuses: () => ({
        send: async () => {
          throw new Error('node down');
        },
      }),
    } as unknown as Rpc<SolanaRpcApi>;
    await expect(confirmSent(broken, signature, failures)).rejects.toMatchObject({
      code: 'CHAIN_UNAVAILABLE',
      message: 'unconfirmed in our words',
      extra: { signature },
    });
  });
});

/** A stored transaction as a caller keeps it: the hash of the message it built. */
interface Stored {
  messageHash: string;
}

/**
 * A relay of `wallet`'s bytes against `stored`, as prepared transactions run it (every signer
 * counts), with each step watched; `overrides` replace steps.
 */
function flowOf(
  rpc: Rpc<SolanaRpcApi>,
  wallet: Transaction,
  stored: Stored,
  overrides: Partial<RelayFlow<Stored, string>> = {},
) {
  const landed = vi.fn(async ({ signature }: { signature: Signature }) => `landed ${signature}`);
  const flow: RelayFlow<Stored, string> = {
    rpc,
    signedBase64: getBase64EncodedWireTransaction(wallet),
    unreadable: 'unreadable in our words',
    async match(signed: SignedTransaction) {
      if (signed.messageHash !== stored.messageHash) throw new AppError('BAD_REQUEST', 'not as prepared');
      return stored;
    },
    signers: everySigner,
    badSignature: 'bad signature in our words',
    options: () => ({ sentBefore: 'wait' }),
    failures: () => failures,
    landed,
    ...overrides,
  };
  return { flow, landed };
}

/** A memo transaction by two fresh signers, signed by both, and the message the server stored. */
async function walletSigned() {
  const [payer, other] = [await generateKeyPairSigner(), await generateKeyPairSigner()];
  const unsigned = await memoTransaction(payer, other);
  const signed = await partiallySignTransaction([payer.keyPair, other.keyPair], unsigned);
  const stored = { messageHash: messageHash(new Uint8Array(unsigned.messageBytes)) };
  return { payer, other, unsigned, signed, stored };
}

describe('relaySigned, the one relay flow', () => {
  it('refuses a transaction other than the stored one before anything is sent', async () => {
    const { signed } = await walletSigned();
    const other = await walletSigned();
    const { rpc, sendTransaction } = stubRpc(null, { err: null });
    const { flow, landed } = flowOf(rpc, signed, other.stored);
    await expect(relaySigned(flow)).rejects.toMatchObject({ status: 400, message: 'not as prepared' });
    expect(sendTransaction).not.toHaveBeenCalled();
    expect(landed).not.toHaveBeenCalled();
  });

  it("refuses unreadable bytes, a missing or a forged signature in the caller's words, sending nothing", async () => {
    const { payer, other, unsigned, signed, stored } = await walletSigned();
    const { rpc, sendTransaction } = stubRpc(null, { err: null });
    const complete = vi.fn(async () => signed);
    const unreadable = { ...flowOf(rpc, signed, stored, { complete }).flow, signedBase64: 'AAAA' };
    await expect(relaySigned(unreadable)).rejects.toMatchObject({
      status: 400,
      message: 'unreadable in our words',
    });
    const payerOnly = await partiallySignTransaction([payer.keyPair], unsigned);
    await expect(relaySigned(flowOf(rpc, payerOnly, stored, { complete }).flow)).rejects.toMatchObject({
      status: 400,
      message: 'bad signature in our words',
    });
    const forged = {
      ...signed,
      signatures: { ...signed.signatures, [other.address]: signed.signatures[payer.address]! },
    } as Transaction;
    await expect(relaySigned(flowOf(rpc, forged, stored, { complete }).flow)).rejects.toMatchObject({
      message: 'bad signature in our words',
    });
    // Only the signers the caller names count: without the other's, the payer's alone is enough.
    const payerCounts = flowOf(rpc, payerOnly, stored, { signers: () => [payer.address] });
    await expect(relaySigned(payerCounts.flow)).resolves.toBe(`landed ${transactionId(payerOnly)}`);
    expect(complete).not.toHaveBeenCalled();
    expect(sendTransaction).toHaveBeenCalledTimes(1);
  });

  it("sends the wallet's bytes as they came, or the server's completed transaction, and books it by its id", async () => {
    const { payer, other, unsigned, signed, stored } = await walletSigned();
    const asCame = stubRpc(null, { err: null });
    const plain = flowOf(asCame.rpc, signed, stored);
    await expect(relaySigned(plain.flow)).resolves.toBe(`landed ${transactionId(signed)}`);
    expect(asCame.sendTransaction.mock.calls[0]).toEqual([plain.flow.signedBase64, expect.anything()]);
    expect(plain.landed).toHaveBeenCalledWith(
      expect.objectContaining({
        match: stored,
        wire: plain.flow.signedBase64,
        signature: transactionId(signed),
      }),
    );
    // The wallet signed alone; the server adds the other signature before the send.
    const payerOnly = await partiallySignTransaction([payer.keyPair], unsigned);
    const completing = stubRpc(null, { err: null });
    const withServer = flowOf(completing.rpc, payerOnly, stored, {
      signers: () => [payer.address],
      complete: (walletTx) => partiallySignTransaction([other.keyPair], walletTx.transaction),
    });
    await expect(relaySigned(withServer.flow)).resolves.toBe(`landed ${transactionId(signed)}`);
    expect(completing.sendTransaction.mock.calls[0]).toEqual([
      getBase64EncodedWireTransaction(signed),
      expect.anything(),
    ]);
  });

  it('ends with the answer a step gives instead of sending', async () => {
    const { signed, stored } = await walletSigned();
    const { rpc, sendTransaction } = stubRpc(null, { err: null });
    const landedBefore = flowOf(rpc, signed, stored, { match: async () => answer('landed before') });
    await expect(relaySigned(landedBefore.flow)).resolves.toBe('landed before');
    const moreWanted = flowOf(rpc, signed, stored, { complete: async () => answer('one more signature') });
    await expect(relaySigned(moreWanted.flow)).resolves.toBe('one more signature');
    expect(sendTransaction).not.toHaveBeenCalled();
    expect(landedBefore.landed).not.toHaveBeenCalled();
    expect(moreWanted.landed).not.toHaveBeenCalled();
  });

  it('only confirms what its claim says was sent before, and sends nothing a claim refuses', async () => {
    const { signed, stored } = await walletSigned();
    const { rpc, sendTransaction } = stubRpc(null, { err: null });
    const sentBefore = flowOf(rpc, signed, stored, { claim: async () => 'sent' });
    await expect(relaySigned(sentBefore.flow)).resolves.toBe(`landed ${transactionId(signed)}`);
    const taken = flowOf(rpc, signed, stored, {
      claim: async () => {
        throw new AppError('CONFLICT', 'already sent in our words');
      },
    });
    await expect(relaySigned(taken.flow)).rejects.toMatchObject({ message: 'already sent in our words' });
    expect(sendTransaction).not.toHaveBeenCalled();
    expect(taken.landed).not.toHaveBeenCalled();
  });

  it("tells a refused send and a failed one in the caller's words, booking nothing", async () => {
    const { signed, stored } = await walletSigned();
    const refusing = stubRpc(sendRefused(null), { err: null });
    const refused = flowOf(refusing.rpc, signed, stored);
    await expect(relaySigned(refused.flow)).rejects.toMatchObject({ message: 'refused in our words' });
    const failing = stubRpc(null, { err: { InstructionError: [0, { Custom: 7 }] } });
    const failed = flowOf(failing.rpc, signed, stored, {
      options: () => ({ sentBefore: 'refuse', lastValidBlockHeight: 300n }),
    });
    await expect(relaySigned(failed.flow)).rejects.toMatchObject({
      code: 'TRANSACTION_FAILED',
      message: 'failed: {"InstructionError":[0,{"Custom":7}]}',
      extra: { signature: transactionId(signed) },
    });
    expect(refused.landed).not.toHaveBeenCalled();
    expect(failed.landed).not.toHaveBeenCalled();
  });
});
