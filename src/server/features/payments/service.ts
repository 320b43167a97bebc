import {
  type Address,
  address,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  type Signature,
  type SignatureBytes,
  verifySignature,
} from '@solana/kit';
import { effectiveStatus } from '#contract/dare-rules';
import { DARE_MESSAGES } from '#contract/dares';
import {
  AIRDROP_MAX_SOL,
  MAJOR_PRIZE_MAX_SOL_DEFAULT,
  POOL_ADD_MIN_SOL,
  STAKE_MAX_SOL,
  STAKE_MIN_SOL,
} from '#contract/limits';
import { MAJOR_DARE_MESSAGES } from '#contract/major-dare';
import { solToLamports } from '#contract/money';
import { PAYMENT_MESSAGES } from '#contract/payments';
import type { Clock } from '#server/deps';
import { requireWallet, type UserRow } from '#server/features/auth/user';
import { requireDareCreationEnabled } from '#server/features/settings/switches';
import { ConfirmationError, waitForConfirmation } from '../../chain/confirmation';
import type { EscrowKeys } from '../../chain/escrow-keys';
import type { ChainPort } from '../../chain/port';
import { buildDepositTransaction, describeTransactionError } from '../../chain/transfers';
import type { Db } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../errors';
import { type RateLimit, type RateLimiter, tooManyRequests } from '../../rate-limit/port';
import { RATE_LIMITS } from '../../rate-limits';
import { bookPayment } from './book-payment';
import { reserveEscrowWallet } from './escrow-wallets';
import {
  messageHash,
  newReferenceKey,
  PAYMENT_INTENT_TTL_MS,
  type PaymentIntentRow,
} from './payment-intents';
import { findDareStanding } from './repo/credits';
import { findEscrowWallet } from './repo/escrow-wallets';
import {
  claimRelay,
  findIntent,
  findOpenIntents,
  insertPaymentIntent,
  releaseRelay,
} from './repo/payment-intents';
import { createTransactionLookup } from './transaction-lookup';

export interface PaymentsDeps {
  db: Db;
  chain: ChainPort;
  escrowKeys: EscrowKeys;
  clock: Clock;
  limiter: RateLimiter;
  /** The largest Major Dare prize (SOL), from MAJOR_PRIZE_MAX_SOL: an admin's stake may go this high. */
  majorPrizeMaxSol?: string;
}

/** Confirmation wait for a relayed transaction; a blockhash lives about a minute. */
const CONFIRM_TIMEOUT_MS = 90_000;

export function createPaymentsService({
  db,
  chain,
  escrowKeys,
  clock,
  limiter,
  majorPrizeMaxSol = MAJOR_PRIZE_MAX_SOL_DEFAULT,
}: PaymentsDeps) {
  const { rpc } = chain;
  const stakeMax = solToLamports(STAKE_MAX_SOL);
  const prizeMax = solToLamports(majorPrizeMaxSol);

  async function limit(key: string, rule: RateLimit, message: string) {
    const result = await limiter.hit(key, rule);
    if (!result.allowed) throw tooManyRequests(message, result.retryAfterSeconds);
  }

  /** Waits for a relayed transaction; its failure is the answer's reason. */
  async function confirmRelayed(signature: Signature): Promise<void> {
    try {
      await waitForConfirmation(rpc, signature, { commitment: 'confirmed', timeoutMs: CONFIRM_TIMEOUT_MS });
    } catch (error) {
      if (error instanceof ConfirmationError && error.reason === 'failed') {
        throw new AppError('TRANSACTION_FAILED', describeTransactionError(error.transactionError), {
          signature,
        });
      }
      if (error instanceof ConfirmationError && error.reason === 'expired') {
        throw new AppError(
          'TRANSACTION_FAILED',
          'The transaction expired before it landed. Please try again.',
        );
      }
      throw new AppError('CHAIN_UNAVAILABLE', 'The network did not confirm the transaction in time', {
        signature,
      });
    }
  }

  /**
   * The relayed message is the server's own transfer of exactly the intent's lamports with its
   * reference, and it landed without error: it paid the intent. Booked now, as money held for the
   * payer, whatever step 7 later makes of it.
   */
  async function see(intent: PaymentIntentRow, signature: Signature): Promise<void> {
    await db.transaction((tx) => bookPayment(tx, intent, signature, clock()));
  }

  return {
    async checkBalance(walletAddress: string, ip: string): Promise<bigint> {
      await limit(`balance:${ip}`, RATE_LIMITS.balanceChecks, 'Too many balance checks; wait a moment');
      const { value } = await rpc.getBalance(address(walletAddress), { commitment: 'confirmed' }).send();
      return value;
    },

    /** Create Dare step 3: an escrow only this user can fund for the next 30 minutes. */
    async reserveEscrow(user: UserRow) {
      requireWallet(user);
      await requireDareCreationEnabled(db);
      await limit(
        `escrow:${user.id}`,
        RATE_LIMITS.escrowWallets,
        'Too many escrow wallets requested; wait a minute',
      );
      const row = await reserveEscrowWallet(db, escrowKeys, user.id, clock());
      return { publicKey: row.publicKey, expiresAt: row.expiresAt!.toISOString() };
    },

    /**
     * Builds the unsigned transfer and records the payment intent it must satisfy. The escrow
     * decides the purpose: the caller's own reservation is a stake, an active dare's escrow a
     * contribution to its pool.
     */
    async createTransaction(user: UserRow, body: { fromWallet: string; toWallet: string; amount: string }) {
      const from = requireWallet(user, body.fromWallet);
      await limit(
        `intent:${user.id}`,
        RATE_LIMITS.paymentIntents,
        'Too many payment requests; wait a minute',
      );
      const now = clock();
      const lamports = solToLamports(body.amount);
      const escrow = await findEscrowWallet(db, body.toWallet);
      if (!escrow) throw notFound(PAYMENT_MESSAGES.escrowNotFound);

      let purpose: 'stake' | 'contribution';
      let dareId: number | null = null;
      if (escrow.dareId === null) {
        if (escrow.reservedBy !== user.id) throw notFound(PAYMENT_MESSAGES.escrowNotFound);
        if (escrow.status !== 'reserved' || !escrow.expiresAt || escrow.expiresAt <= now) {
          throw new AppError('CONFLICT', PAYMENT_MESSAGES.escrowExpired);
        }
        await requireDareCreationEnabled(db);
        // An admin's escrow may fund a Major Dare, whose prize has its own maximum.
        if (user.isAdmin && lamports > stakeMax && lamports > prizeMax)
          throw badRequest(MAJOR_DARE_MESSAGES.prizeMax(majorPrizeMaxSol));
        if (!user.isAdmin && lamports > stakeMax) throw badRequest(DARE_MESSAGES.stakeMax(body.amount));
        if (lamports < solToLamports(STAKE_MIN_SOL)) throw badRequest(DARE_MESSAGES.stakeMin);
        purpose = 'stake';
      } else {
        if (lamports < solToLamports(POOL_ADD_MIN_SOL)) throw badRequest(PAYMENT_MESSAGES.invalidAmount);
        const dare = await findDareStanding(db, escrow.dareId);
        if (!dare || effectiveStatus(dare, now) !== 'active') {
          throw new AppError('CONFLICT', PAYMENT_MESSAGES.dareNotActive);
        }
        purpose = 'contribution';
        dareId = dare.id;
      }

      const minSlot = await rpc.getSlot({ commitment: 'confirmed' }).send();
      const reference = newReferenceKey();
      const built = await buildDepositTransaction(rpc, {
        from: address(from),
        to: address(escrow.publicKey),
        lamports,
        reference: address(reference),
      });
      await insertPaymentIntent(db, {
        purpose,
        userId: user.id,
        dareId,
        fromWallet: from,
        escrowWallet: escrow.publicKey,
        lamports,
        reference,
        minSlot,
        messageHash: messageHash(built.messageBytes),
        expiresAt: new Date(now.getTime() + PAYMENT_INTENT_TTL_MS),
        now,
      });
      return {
        transaction: built.base64,
        reference,
        lamports: lamports.toString(),
        lastValidBlockHeight: built.lastValidBlockHeight.toString(),
      };
    },

    /**
     * Relays a transaction the user's wallet signed and waits until it is confirmed, then books it
     * as money held for the payer. Only the exact message the server built for one of the caller's
     * open payment intents is relayed (the wallet's signature is the only change), once per intent:
     * the server is not a relay for anything else.
     */
    async sendTransaction(user: UserRow, signedTransaction: string): Promise<Signature> {
      await limit(`send:${user.id}`, RATE_LIMITS.relayedTransactions, 'Too many transactions; wait a minute');
      let decoded: ReturnType<ReturnType<typeof getTransactionDecoder>['decode']>;
      let accounts: readonly Address[];
      try {
        decoded = getTransactionDecoder().decode(Buffer.from(signedTransaction, 'base64'));
        accounts = getCompiledTransactionMessageDecoder().decode(decoded.messageBytes).staticAccounts;
      } catch {
        throw badRequest(PAYMENT_MESSAGES.invalidTransaction);
      }
      const intents = await findOpenIntents(db, { userId: user.id, references: [...accounts], now: clock() });
      if (intents.length === 0) throw badRequest(PAYMENT_MESSAGES.notPrepared);
      const hash = messageHash(new Uint8Array(decoded.messageBytes));
      const intent = intents.find((candidate) => candidate.messageHash === hash);
      if (!intent) throw badRequest(PAYMENT_MESSAGES.notAsPrepared);
      const signatureBytes = decoded.signatures[intent.fromWallet as Address];
      const valid =
        signatureBytes &&
        (await verifySignature(
          await getPublicKeyFromAddress(intent.fromWallet as Address),
          signatureBytes as SignatureBytes,
          new Uint8Array(decoded.messageBytes),
        ));
      if (!valid) throw badRequest(PAYMENT_MESSAGES.badSignature);
      // The fee payer's signature is the transaction's id; the payer pays the fee.
      const signature = getBase58Decoder().decode(signatureBytes) as Signature;

      if (!(await claimRelay(db, intent.id, signature, clock()))) {
        // Ed25519 signatures are deterministic: the same message signed again is the same
        // transaction. Answer it (a client retrying a lost answer) without sending it again.
        const current = await findIntent(db, intent.id);
        if (current?.relaySignature !== signature) throw conflict(PAYMENT_MESSAGES.alreadySent);
        await confirmRelayed(signature);
        await see(current, signature);
        return signature;
      }
      try {
        await rpc
          .sendTransaction(signedTransaction as never, {
            encoding: 'base64',
            preflightCommitment: 'confirmed',
          })
          .send();
      } catch (error) {
        // Refused before it was forwarded: nothing was sent, so the payer may send it again.
        await releaseRelay(db, intent.id, signature);
        throw new AppError('TRANSACTION_FAILED', describeTransactionError(error));
      }
      await confirmRelayed(signature);
      await see(intent, signature);
      return signature;
    },

    /** Test SOL on the embedded chain only: a real cluster's SOL is never minted by us. */
    async airdrop(walletAddress: string, amount: string, ip: string) {
      if (!chain.embedded) throw notFound(PAYMENT_MESSAGES.testSolUnavailable);
      const lamports = solToLamports(amount);
      if (lamports > solToLamports(AIRDROP_MAX_SOL)) throw badRequest(PAYMENT_MESSAGES.airdropMax);
      await limit(`airdrop:${ip}`, RATE_LIMITS.airdrops, 'Too many test SOL requests; wait a minute');
      const signature = await chain.airdrop(address(walletAddress), lamports);
      const { value: balance } = await rpc
        .getBalance(address(walletAddress), { commitment: 'confirmed' })
        .send();
      return { signature, balance: balance.toString() };
    },

    /** One transaction for the local explorer page: cached, and limited per address. */
    transaction: createTransactionLookup({ rpc, limiter }),
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
