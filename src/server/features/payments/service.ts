/**
 * Payments: a stake or a pool contribution, from the wallet's transaction to money in a dare
 * (docs/decisions/021-money-on-the-program.md). Where each part is (docs/decisions/045-one-relay.md):
 *
 * - this file: the requests. A balance, a vault address reserved (Create Dare step 3), a payment's
 *   transaction built and its intent recorded, the wallet's signed transaction relayed (the steps
 *   in src/server/chain/relay.ts) and booked, test SOL. routes.ts is their HTTP; lifecycle.ts
 *   schedules the job in jobs/.
 * - intents/: what a payment is asked to be before it is paid. intent.ts (lifetimes, the
 *   reference key, the row), escrow-reservations.ts (a vault address one user may fund for 30
 *   minutes), vault-terms.ts (a new vault's deadline, kind and refund grace; the platform's keys).
 * - crediting/: a paid intent made money. landed-transactions.ts reads the chain's transaction,
 *   verify-payment.ts checks it against its intent, book-payment.ts books it the moment it is seen,
 *   credit-payment.ts is step 7 (a new dare or a pool addition), hold-refused-payment.ts keeps a
 *   refused step 7's money briefly for a corrected retry.
 * - jobs/: what nobody finished. lapsed-payments.ts (credit, refund or look up lapsed intents;
 *   expire reservations), refund-refused-vaults.ts (a vault that will never fund a dare, cancelled
 *   and refunded by the refunds feature).
 * - explorer/: the /tx page. transaction-lookup.ts, transaction-view.ts, and transaction-errors.ts
 *   (a failed transaction in words, for that page and for the relay's answers).
 * - repo/: the queries, by table: payment-intents.ts, escrow-wallets.ts (dare vault addresses),
 *   credits.ts (what step 7 writes), explorer-names.ts.
 */
import {
  type Address,
  address,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  type Signature,
  type SignatureBytes,
  signBytes,
} from '@solana/kit';
import { deadlineProblem, effectiveStatus } from '#contract/dare-rules';
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
import { type CreateTransactionRequest, PAYMENT_MESSAGES, type VaultKind } from '#contract/payments';
import type { EscrowKeys } from '#server/chain/escrow-keys';
import type { EscrowPrograms } from '#server/chain/escrow-program/any-program';
import {
  buildCreateVaultV2Transaction,
  buildDepositTransaction,
} from '#server/chain/escrow-program/app-transactions';
import { escrowProgramDecoder } from '#server/chain/escrow-program/decode';
import { RECEIPT_SIZE, VAULT_SIZE } from '#server/chain/escrow-program/layout';
import { VAULT_TERM_WORDS } from '#server/chain/escrow-program/our-vault';
import { VAULT_V2_SIZE } from '#server/chain/escrow-program/v2/layout';
import { createFeePayerFunds, FeePayerLowError } from '#server/chain/fee-payer-funds';
import { MEMO_PROGRAM } from '#server/chain/memo';
import type { ChainPort } from '#server/chain/port';
import {
  confirmSent,
  decodeSigned,
  isValidSignature,
  messageHash,
  type RelayFailures,
  sendAndConfirm,
} from '#server/chain/relay';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { AppError, badRequest, conflict, forbidden, notFound } from '#server/errors';
import { requireWallet, type UserRow } from '#server/features/auth/user';
import { requireDareCreationEnabled } from '#server/features/settings/switches';
import type { Judging } from '#server/judging-keys';
import { limit as hitLimit } from '#server/rate-limit/limit';
import type { RateLimit, RateLimiter } from '#server/rate-limit/port';
import { RATE_LIMITS } from '#server/rate-limits';
import { bookPayment } from './crediting/book-payment';
import { createPaymentCredits } from './crediting/credit-payment';
import { describeTransactionError, INSUFFICIENT_FUNDS } from './explorer/transaction-errors';
import { createTransactionLookup } from './explorer/transaction-lookup';
import { reserveEscrowWallet, vaultSeedBytes } from './intents/escrow-reservations';
import {
  newReferenceKey,
  PAYMENT_INTENT_TTL_MS,
  type PaymentIntentRow,
  type ProgramInstruction,
} from './intents/intent';
import { createOurVaults, v1RetiredError, vaultTermsFor } from './intents/our-vault';
import { platformKeys, type VaultTerms, vaultTerms } from './intents/vault-terms';
import { createLapsedPayments } from './jobs/lapsed-payments';
import type { RefusedVaults } from './jobs/refund-refused-vaults';
import { findDareStanding } from './repo/credits';
import { type EscrowWalletRow, findEscrowWallet } from './repo/escrow-wallets';
import { findExplorerNames } from './repo/explorer-names';
import {
  claimRelay,
  findIntent,
  findOpenIntentByMessage,
  findOpenIntentsByReference,
  insertPaymentIntent,
  releaseRelay,
} from './repo/payment-intents';

/** What the payments service needs to refund a refused vault: the wiring passes the refunds service's. */
export type { RefusedVaults };

export interface PaymentsDeps {
  db: Db;
  chain: ChainPort;
  escrowKeys: EscrowKeys;
  /** Escrow program v1: vaults made before v2 keep taking deposits under it (docs/program.md). */
  escrowProgramId: Address;
  /** Escrow program v2: every new dare's vault. */
  escrowProgramV2Id: Address;
  /** The judges, guardian and payout window new vaults record. */
  judging: Judging;
  clock: Clock;
  limiter: RateLimiter;
  /** Cancels and refunds a vault the server refuses: the refunds feature (wired in routes.ts). */
  refusedVaults: RefusedVaults;
  /** The largest Major Dare prize (SOL), from MAJOR_PRIZE_MAX_SOL: an admin's stake may go this high. */
  majorPrizeMaxSol?: string;
  /**
   * Refuses a new Major Dare's prize while one is live (the major-dare feature, wired in
   * services.ts; declared here so payments does not depend on it). Absent: not checked.
   */
  requireNoLiveMajorDare?: (now: Date) => Promise<void>;
}

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
    if (message.staticAccounts[instruction.programAddressIndex] !== MEMO_PROGRAM || !instruction.data)
      continue;
    texts.push(new TextDecoder().decode(instruction.data));
  }
  return texts;
}

export function createPaymentsService({
  db,
  chain,
  escrowKeys,
  escrowProgramId,
  escrowProgramV2Id,
  judging,
  clock,
  limiter,
  refusedVaults,
  majorPrizeMaxSol = MAJOR_PRIZE_MAX_SOL_DEFAULT,
  requireNoLiveMajorDare,
}: PaymentsDeps) {
  const { rpc } = chain;
  const stakeMax = solToLamports(STAKE_MAX_SOL);
  const prizeMax = solToLamports(majorPrizeMaxSol);
  const platform = platformKeys(escrowKeys);
  const feePayerFunds = createFeePayerFunds({ rpc, escrowKeys });

  /**
   * The rent the platform puts up when this payment lands: a backer's first receipt in a v1
   * vault; nothing for a new vault, a v2 deposit or a deposit into an existing receipt.
   */
  async function platformRent(built: {
    instruction: ProgramInstruction;
    newReceipt?: boolean;
    programVersion: number;
  }) {
    // Every new vault is v2's, whose creator pays its rent and its receipt's (decisions 036, 046);
    // a v2 backer pays its own receipt's (decision 058).
    if (built.instruction === 'create_vault' || built.programVersion === 2) return 0n;
    return built.newReceipt ? feePayerFunds.rent(RECEIPT_SIZE) : 0n;
  }

  const programs: EscrowPrograms = { v1: escrowProgramId, v2: escrowProgramV2Id };
  const ourVaults = createOurVaults({ db, rpc, programs, escrowKeys, judging, clock });
  /** The program an escrow's vault belongs to, as recorded when it was reserved. */
  const programOf = (escrow: Pick<EscrowWalletRow, 'programVersion'>) =>
    escrow.programVersion === 2 ? escrowProgramV2Id : escrowProgramId;

  /**
   * A relay refused for want of funds, when the platform co-signs it: if the platform cannot pay
   * its part, that is what the user is told, not that their wallet is short.
   */
  async function platformShort(intent: PaymentIntentRow, platformSigns: boolean): Promise<boolean> {
    if (!platformSigns) return false;
    const rent = await platformRent({
      instruction: intent.programInstruction as ProgramInstruction,
      newReceipt: true,
      programVersion: 1,
    });
    return !(await feePayerFunds.canPay(rent).catch(() => true));
  }

  const limit = (key: string, rule: RateLimit, message: string) => hitLimit(limiter, key, rule, message);

  /**
   * The relayed message is one the server built for this intent, and it landed without error: it
   * paid the intent. Booked now, as money held for the payer, whatever step 7 later makes of it.
   */
  async function see(intent: PaymentIntentRow, signature: Signature): Promise<void> {
    await db.transaction((tx) => bookPayment(tx, intent, signature, clock()));
  }

  /** The amount limits of a new dare's vault: a stake, or an admin's Major Dare prize. */
  function checkStake(user: UserRow, kind: VaultKind, lamports: bigint, amount: string) {
    if (kind === 'major') {
      if (!user.isAdmin) throw forbidden(PAYMENT_MESSAGES.majorForAdmins);
      if (lamports > prizeMax) throw badRequest(MAJOR_DARE_MESSAGES.prizeMax(majorPrizeMaxSol));
    } else if (lamports > stakeMax) {
      throw badRequest(DARE_MESSAGES.stakeMax(amount));
    }
    if (lamports < solToLamports(STAKE_MIN_SOL)) throw badRequest(DARE_MESSAGES.stakeMin);
  }

  /** The program transaction paying `lamports` from `from` into the escrow's vault. */
  async function buildPayment(
    escrow: EscrowWalletRow,
    from: Address,
    lamports: bigint,
    terms: VaultTerms | null,
    reference: string,
  ) {
    const vault = address(escrow.publicKey);
    const programVersion = escrow.programVersion;
    if (terms) {
      const seed = vaultSeedBytes(escrow);
      if (!seed) throw new AppError('CONFLICT', PAYMENT_MESSAGES.escrowExpired);
      // New vaults are program v2's only: no server key can pay one out (decision 036). A v1
      // reservation made before the switch and never funded is asked for again.
      if (programVersion !== 2) throw new AppError('CONFLICT', PAYMENT_MESSAGES.escrowExpired);
      // The terms the reservation recorded, the very ones every later check holds the vault to.
      const ours = vaultTermsFor(await ourVaults.recordedOf(escrow), escrowProgramV2Id, terms);
      const built = await buildCreateVaultV2Transaction(rpc, {
        programId: escrowProgramV2Id,
        creator: from,
        dareId: seed,
        terms: {
          kind: ours.kind,
          deadline: ours.deadline,
          refundAfter: ours.refundAfter,
          judges: [...ours.judges],
          threshold: ours.threshold,
          guardian: ours.guardian,
          canceller: ours.canceller,
          payoutWindow: ours.payoutWindow,
        },
        amount: lamports,
        memo: reference,
      });
      return { ...built, instruction: 'create_vault' as const, programVersion };
    }
    // A v2 backer lends its own receipt's rent, returned to it when the receipt closes: the
    // platform signs nothing a client could broadcast (decision 058). v1 vaults take no new money.
    const built = await buildDepositTransaction(rpc, {
      programId: programOf(escrow),
      vault,
      payer: from,
      amount: lamports,
      memo: reference,
    });
    return { ...built, instruction: 'deposit' as const, programVersion };
  }

  /**
   * Whether the escrow's vault takes a deposit now: null when it does not exist yet (a stake then
   * creates it); 409 when it is not ours in every term (naming the term), is v1's (retired), or no
   * longer open.
   */
  async function openVault(escrow: EscrowWalletRow): Promise<'open' | null> {
    const vault = await ourVaults.requireOurs(escrow);
    if (!vault) return null;
    if (vault.status !== 'open') throw new AppError('CONFLICT', PAYMENT_MESSAGES.vaultNotOpen);
    return 'open';
  }

  /**
   * A stake whose reserved address already holds a vault: ours (a stake paid, not yet recorded as
   * a dare) takes a deposit. A foreign one (someone made a vault there first, with other terms) is
   * never paid into: the reservation is abandoned and a fresh one offered in the 409, so
   * front-running costs the front-runner its rent and the creator one retry, never SOL.
   */
  async function stakeVault(user: UserRow, escrow: EscrowWalletRow): Promise<'open' | null> {
    const found = await ourVaults.check(escrow);
    if (found.state === 'none') return null;
    if (found.state === 'v1') throw v1RetiredError();
    if (found.state === 'ours') {
      if (found.vault.status !== 'open') throw new AppError('CONFLICT', PAYMENT_MESSAGES.vaultNotOpen);
      return 'open';
    }
    const fresh = await reserveEscrowWallet(
      db,
      { programId: escrowProgramV2Id, version: 2, terms: await ourVaults.termsToRecord() },
      user.id,
      clock(),
    );
    throw new AppError('CONFLICT', PAYMENT_MESSAGES.foreignReservation(VAULT_TERM_WORDS[found.term]), {
      foreignTerm: found.term,
      escrowWallet: { publicKey: fresh.publicKey, expiresAt: fresh.expiresAt!.toISOString() },
    });
  }

  return {
    async checkBalance(walletAddress: string, ip: string): Promise<bigint> {
      await limit(`balance:${ip}`, RATE_LIMITS.balanceChecks, 'Too many balance checks; wait a moment');
      const { value } = await rpc.getBalance(address(walletAddress), { commitment: 'confirmed' }).send();
      return value;
    },

    /** Create Dare step 3: a dare vault's address only this user can fund for the next 30 minutes. */
    async reserveEscrow(user: UserRow) {
      requireWallet(user);
      await requireDareCreationEnabled(db);
      await limit(
        `escrow:${user.id}`,
        RATE_LIMITS.escrowWallets,
        'Too many escrow wallets requested; wait a minute',
      );
      // Every new dare's vault is one of program v2: judges name its winners (decision 036).
      const row = await reserveEscrowWallet(
        db,
        { programId: escrowProgramV2Id, version: 2, terms: await ourVaults.termsToRecord() },
        user.id,
        clock(),
      );
      return { publicKey: row.publicKey, expiresAt: row.expiresAt!.toISOString() };
    },

    /**
     * Builds the program transaction of a payment and records the payment intent it must satisfy
     * (decision 021). The escrow decides the purpose: the caller's own reservation is a stake
     * (`create_vault`, with the deadline and kind asked for, while its vault does not exist;
     * `deposit` after), an active dare's vault a contribution to its pool (`deposit`). The wallet
     * pays the fee and the rent of what the transaction creates, and is its only signer.
     */
    async createTransaction(user: UserRow, body: CreateTransactionRequest) {
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
      let terms: VaultTerms | null = null;
      if (escrow.dareId === null) {
        if (escrow.reservedBy !== user.id) throw notFound(PAYMENT_MESSAGES.escrowNotFound);
        if (escrow.status !== 'reserved' || !escrow.expiresAt || escrow.expiresAt <= now) {
          throw new AppError('CONFLICT', PAYMENT_MESSAGES.escrowExpired);
        }
        await requireDareCreationEnabled(db);
        terms = vaultTerms(body, now);
        checkStake(user, terms.kind, lamports, body.amount);
        // Refused before the admin's wallet pays anything (issue 37, item 2).
        if (terms.kind === 'major') await requireNoLiveMajorDare?.(now);
        if (terms.deadlineRequested) {
          const problem = deadlineProblem(terms.deadline, now);
          if (problem) throw badRequest(problem, { fields: { deadline: problem } });
        }
        purpose = 'stake';
        // A vault created already (a stake paid, not yet recorded as a dare) takes a deposit.
        if ((await stakeVault(user, escrow)) === 'open') terms = null;
        // A new vault fixes the dare's deadline on chain: the dare must be made with that very one.
        else if (!terms.deadlineRequested)
          throw badRequest(PAYMENT_MESSAGES.vaultDeadlineRequired, {
            fields: { deadline: PAYMENT_MESSAGES.vaultDeadlineRequired },
          });
      } else {
        if (lamports < solToLamports(POOL_ADD_MIN_SOL)) throw badRequest(PAYMENT_MESSAGES.invalidAmount);
        const dare = await findDareStanding(db, escrow.dareId);
        if (!dare || effectiveStatus(dare, now) !== 'active') {
          throw new AppError('CONFLICT', PAYMENT_MESSAGES.dareNotActive);
        }
        if ((await openVault(escrow)) === null)
          throw new AppError('CONFLICT', PAYMENT_MESSAGES.dareNotActive);
        purpose = 'contribution';
        dareId = dare.id;
      }

      const reference = newReferenceKey();
      const built = await buildPayment(escrow, address(from), lamports, terms, reference);
      // Refused before the wallet signs: a transaction the platform cannot fund would fail anyway.
      const rent = await platformRent(built);
      if (rent > 0n) await feePayerFunds.requireCanPay(rent);
      await insertPaymentIntent(db, {
        purpose,
        userId: user.id,
        dareId,
        fromWallet: from,
        escrowWallet: escrow.publicKey,
        lamports,
        reference,
        instruction: built.instruction satisfies ProgramInstruction,
        terms,
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
     * A pool contribution from a wallet that asked through a public link (Solana Actions): the
     * same checks and the same deposit as Add to Pool, for a wallet no account needs to hold. No
     * intent is recorded, so the platform keeps nothing per request and signs nothing: the
     * deposit, once landed, is a straight one, credited to its payer by the vault notice (the
     * callback asks for it at once; the payout job's run otherwise), exactly once.
     */
    async buildWalletContribution(input: { escrowWallet: string; from: Address; amount: string }) {
      const now = clock();
      const lamports = solToLamports(input.amount);
      if (lamports < solToLamports(POOL_ADD_MIN_SOL)) throw badRequest(PAYMENT_MESSAGES.invalidAmount);
      const escrow = await findEscrowWallet(db, input.escrowWallet);
      if (!escrow || escrow.dareId === null) throw new AppError('CONFLICT', PAYMENT_MESSAGES.dareNotActive);
      const dare = await findDareStanding(db, escrow.dareId);
      if (!dare || effectiveStatus(dare, now) !== 'active') {
        throw new AppError('CONFLICT', PAYMENT_MESSAGES.dareNotActive);
      }
      if ((await openVault(escrow)) === null) throw new AppError('CONFLICT', PAYMENT_MESSAGES.dareNotActive);
      // Only v2 vaults are ever open to new money (decision 048); the backer lends its receipt's rent.
      const built = await buildDepositTransaction(rpc, {
        programId: escrowProgramV2Id,
        vault: address(escrow.publicKey),
        payer: input.from,
        amount: lamports,
      });
      return {
        transaction: built.base64,
        lamports,
        lastValidBlockHeight: built.lastValidBlockHeight,
      };
    },

    /**
     * Relays a transaction the user's wallet signed and waits until it is confirmed, then books it
     * as money held for the payer. Only the exact message the server built for one of the caller's
     * open payment intents is relayed, once per intent: the wallet's signature must verify, and
     * DarePool's own signatures (the rent payer's) are put back as the server made them. The
     * server is not a relay for anything else.
     */
    async sendTransaction(user: UserRow, signedTransaction: string): Promise<Signature> {
      await limit(`send:${user.id}`, RATE_LIMITS.relayedTransactions, 'Too many transactions; wait a minute');
      const signed = decodeSigned(signedTransaction, PAYMENT_MESSAGES.invalidTransaction);
      const { transaction: decoded, messageBytes } = signed;
      let references: string[];
      try {
        references = memoTexts(messageBytes);
      } catch {
        throw badRequest(PAYMENT_MESSAGES.invalidTransaction);
      }
      const now = clock();
      const intent = await findOpenIntentByMessage(db, {
        userId: user.id,
        messageHash: signed.messageHash,
        now,
      });
      if (!intent) {
        const related = await findOpenIntentsByReference(db, { userId: user.id, references, now });
        throw badRequest(related.length > 0 ? PAYMENT_MESSAGES.notAsPrepared : PAYMENT_MESSAGES.notPrepared);
      }
      const signatureBytes = decoded.signatures[intent.fromWallet as Address];
      if (!signatureBytes || !(await isValidSignature(intent.fromWallet, signatureBytes, messageBytes)))
        throw badRequest(PAYMENT_MESSAGES.badSignature);
      // The wallet is the fee payer: its signature is the transaction's id.
      const signature = getBase58Decoder().decode(signatureBytes) as Signature;
      const { rentPayer } = await platform();
      const wire =
        rentPayer.address in decoded.signatures
          ? getBase64EncodedWireTransaction({
              ...decoded,
              signatures: {
                ...decoded.signatures,
                [rentPayer.address]: (await signBytes(
                  rentPayer.keyPair.privateKey,
                  messageBytes,
                )) as SignatureBytes,
              },
            })
          : getBase64EncodedWireTransaction(decoded);

      if (!(await claimRelay(db, intent.id, signature, clock()))) {
        // Ed25519 signatures are deterministic: the same message signed again is the same
        // transaction. Answer it (a client retrying a lost answer) without sending it again.
        const current = await findIntent(db, intent.id);
        if (current?.relaySignature !== signature) throw conflict(PAYMENT_MESSAGES.alreadySent);
        await confirmSent(rpc, signature, PAYMENT_FAILURES);
        await see(current, signature);
        return signature;
      }
      // The intent's claim is the record of what was sent: a copy sent before is refused like any
      // other refusal, not waited for.
      await sendAndConfirm(
        rpc,
        wire,
        signature,
        { sentBefore: 'refuse' },
        {
          ...PAYMENT_FAILURES,
          async refused(error) {
            // Refused before it was forwarded: nothing was sent, so the payer may send it again.
            await releaseRelay(db, intent.id, signature);
            const reason = describeTransactionError(error);
            if (
              reason === INSUFFICIENT_FUNDS &&
              (await platformShort(intent, rentPayer.address in decoded.signatures))
            )
              return new FeePayerLowError();
            return new AppError('TRANSACTION_FAILED', reason);
          },
        },
      );
      await see(intent, signature);
      return signature;
    },

    /** Step 7: a verified payment credited to a new dare or a pool (creditPayment). */
    credit: createPaymentCredits({ db, chain, clock, programs, platform, ourVaults, refusedVaults }),

    /** One run of the lapsed-payments job (lifecycle.ts): credit, refund or look up what nobody finished. */
    settleLapsed: createLapsedPayments({ db, chain, clock, programs, ourVaults, refusedVaults }).run,

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
    transaction: createTransactionLookup({
      rpc,
      limiter,
      decode: escrowProgramDecoder(escrowProgramId, escrowProgramV2Id),
      names: (addresses) => findExplorerNames(db, addresses),
      vaultSizes: new Map([
        [escrowProgramId, VAULT_SIZE],
        [escrowProgramV2Id, VAULT_V2_SIZE],
      ]),
    }),
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
