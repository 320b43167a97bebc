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
  confirmSent,
  decodeSigned,
  messageHash,
  type RelayFailures,
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
