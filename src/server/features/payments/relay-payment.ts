/**
 * A payment's transaction, signed by the wallet, relayed (the steps in src/server/chain/relay.ts)
 * and booked as money held for the payer the moment it is confirmed.
 */
import {
  getCompiledTransactionMessageDecoder,
  type Signature,
  type SignatureBytes,
  signBytes,
  type Transaction,
} from '@solana/kit';
import { PAYMENT_MESSAGES } from '#contract/payments';
import { FeePayerLowError } from '#server/chain/fee-payer-funds';
import { MEMO_PROGRAM } from '#server/chain/memo';
import { type RelayFailures, relaySigned, type SignedTransaction } from '#server/chain/relay';
import { AppError, badRequest, conflict } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { RATE_LIMITS } from '#server/rate-limits';
import { bookPayment } from './crediting/book-payment';
import { describeTransactionError, INSUFFICIENT_FUNDS } from './explorer/transaction-errors';
import type { PaymentIntentRow, ProgramInstruction } from './intents/intent';
import { platformRent } from './intents/payment-transaction';
import type { Payments } from './payment-deps';
import {
  claimRelay,
  findIntent,
  findOpenIntentByMessage,
  findOpenIntentsByReference,
  releaseRelay,
} from './repo/payment-intents';

/** A relayed payment's failures once it was sent: the wallet's words for what the chain said. */
const PAYMENT_FAILURES: Omit<RelayFailures, 'refused'> = {
  failed: (transactionError) => describeTransactionError(transactionError),
  expired: () =>
    new AppError('TRANSACTION_FAILED', 'The transaction expired before it landed. Please try again.'),
  unconfirmed: 'The network did not confirm the transaction in time',
};

/** The memo texts of a transaction message: a server-built one carries its intent's reference. */
function memoTexts(messageBytes: Uint8Array): string[] {
  const message = getCompiledTransactionMessageDecoder().decode(messageBytes);
  const texts: string[] = [];
  if (!('instructions' in message)) return texts;
  for (const instruction of message.instructions) {
    const data = instruction.data;
    if (message.staticAccounts[instruction.programAddressIndex] !== MEMO_PROGRAM || !data) continue;
    // A view of kit's read-only bytes: TextDecoder takes only a writable buffer's view (Node's types).
    texts.push(new TextDecoder().decode(new Uint8Array(data.buffer, data.byteOffset, data.length)));
  }
  return texts;
}

/**
 * A relay refused for want of funds, when the platform co-signs it: if the platform cannot pay
 * its part, that is what the user is told, not that their wallet is short.
 */
async function platformShort(
  payments: Payments,
  intent: PaymentIntentRow,
  platformSigns: boolean,
): Promise<boolean> {
  if (!platformSigns) return false;
  const rent = await platformRent(payments, {
    instruction: intent.programInstruction as ProgramInstruction,
    newReceipt: true,
    programVersion: 1,
  });
  return !(await payments.feePayerFunds.canPay(rent).catch(() => true));
}

/**
 * The relayed message is one the server built for this intent, and it landed without error: it
 * paid the intent. Booked now, as money held for the payer, whatever step 7 later makes of it.
 */
async function bookRelayedPayment(
  { db, clock }: Payments,
  intent: PaymentIntentRow,
  signature: Signature,
): Promise<void> {
  await db.transaction((tx) => bookPayment(tx, intent, signature, clock()));
}

/**
 * The caller's open payment intent whose message the server built is this very one (matched by
 * its hash); a 400 telling a changed transaction from one never prepared otherwise.
 */
async function openIntentOf(
  { db, clock }: Payments,
  user: UserRow,
  signed: SignedTransaction,
): Promise<PaymentIntentRow> {
  let references: string[];
  try {
    references = memoTexts(signed.messageBytes);
  } catch {
    throw badRequest(PAYMENT_MESSAGES.invalidTransaction);
  }
  const now = clock();
  const intent = await findOpenIntentByMessage(db, { userId: user.id, messageHash: signed.messageHash, now });
  if (intent) return intent;
  const related = await findOpenIntentsByReference(db, { userId: user.id, references, now });
  throw badRequest(related.length > 0 ? PAYMENT_MESSAGES.notAsPrepared : PAYMENT_MESSAGES.notPrepared);
}

/** DarePool's own signature (the rent payer's) put back as the server made it, where it signs. */
async function withRentPayerSignature(
  { platform }: Payments,
  signed: SignedTransaction,
): Promise<Transaction> {
  const { rentPayer } = await platform();
  const { transaction, messageBytes } = signed;
  if (!(rentPayer.address in transaction.signatures)) return transaction;
  const signature = (await signBytes(rentPayer.keyPair.privateKey, messageBytes)) as SignatureBytes;
  return { ...transaction, signatures: { ...transaction.signatures, [rentPayer.address]: signature } };
}

/**
 * Relays a transaction the user's wallet signed and waits until it is confirmed, then books it
 * as money held for the payer. Only the exact message the server built for one of the caller's
 * open payment intents is relayed, once per intent: the wallet's signature must verify, and
 * DarePool's own signatures (the rent payer's) are put back as the server made them. The
 * server is not a relay for anything else.
 */
export async function sendTransaction(
  payments: Payments,
  user: UserRow,
  signedTransaction: string,
): Promise<Signature> {
  const { db, chain, clock, platform, limit } = payments;
  await limit(`send:${user.id}`, RATE_LIMITS.relayedTransactions, 'Too many transactions; wait a minute');
  return relaySigned<PaymentIntentRow, Signature>({
    rpc: chain.rpc,
    signedBase64: signedTransaction,
    unreadable: PAYMENT_MESSAGES.invalidTransaction,
    match: (signed) => openIntentOf(payments, user, signed),
    // The wallet is the fee payer: its signature is the transaction's id.
    signers: (_signed, intent) => [intent.fromWallet],
    badSignature: PAYMENT_MESSAGES.badSignature,
    complete: (signed) => withRentPayerSignature(payments, signed),
    async claim({ match: intent, signature }) {
      if (await claimRelay(db, intent.id, signature, clock())) return 'send';
      // Ed25519 signatures are deterministic: the same message signed again is the same
      // transaction. Answer it (a client retrying a lost answer) without sending it again.
      const current = await findIntent(db, intent.id);
      if (current?.relaySignature !== signature) throw conflict(PAYMENT_MESSAGES.alreadySent);
      return 'sent';
    },
    // The intent's claim is the record of what was sent: a copy sent before is refused like any
    // other refusal, not waited for.
    options: () => ({ sentBefore: 'refuse' }),
    failures: ({ match: intent, signature, transaction }) => ({
      ...PAYMENT_FAILURES,
      async refused(error) {
        // Refused before it was forwarded: nothing was sent, so the payer may send it again.
        await releaseRelay(db, intent.id, signature);
        const reason = describeTransactionError(error);
        if (reason === INSUFFICIENT_FUNDS) {
          const { rentPayer } = await platform();
          if (await platformShort(payments, intent, rentPayer.address in transaction.signatures))
            return new FeePayerLowError();
        }
        return new AppError('TRANSACTION_FAILED', reason);
      },
    }),
    landed: async ({ match: intent, signature }) => {
      await bookRelayedPayment(payments, intent, signature);
      return signature;
    },
  });
}
