import {
  type Address,
  address,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  type Signature,
  type SignatureBytes,
  signBytes,
  verifySignature,
} from '@solana/kit';
import { deadlineProblem, effectiveStatus } from '#contract/dare-rules';
import { REFUND_GRACE_MS } from '#contract/dare-status';
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
import { PAYMENT_MESSAGES, type VaultKind } from '#contract/payments';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import type { EscrowPrograms } from '#server/chain/escrow-program/any-program';
import {
  buildCreateVaultTransaction,
  buildCreateVaultV2Transaction,
  buildDepositTransaction,
} from '#server/chain/escrow-program/app-transactions';
import { escrowProgramDecoder } from '#server/chain/escrow-program/decode';
import { RECEIPT_SIZE, VAULT_SIZE } from '#server/chain/escrow-program/layout';
import { createFeePayerFunds, FeePayerLowError } from '#server/chain/fee-payer-funds';
import { MEMO_PROGRAM } from '#server/chain/memo';
import type { Clock } from '#server/deps';
import { requireWallet, type UserRow } from '#server/features/auth/user';
import { requireDareCreationEnabled } from '#server/features/settings/switches';
import type { Judging } from '#server/judging';
import { ConfirmationError, waitForConfirmation } from '../../chain/confirmation';
import type { EscrowKeys } from '../../chain/escrow-keys';
import type { ChainPort } from '../../chain/port';
import type { Db } from '../../db/client';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors';
import { type RateLimit, type RateLimiter, tooManyRequests } from '../../rate-limit/port';
import { RATE_LIMITS } from '../../rate-limits';
import { bookPayment } from './book-payment';
import { createPaymentCredits } from './credit-payment';
import { reserveEscrowWallet, vaultSeedBytes } from './escrow-wallets';
import { createLapsedPayments } from './lapsed-payments';
import {
  messageHash,
  newReferenceKey,
  PAYMENT_INTENT_TTL_MS,
  type PaymentIntentRow,
  type ProgramInstruction,
} from './payment-intents';
import type { RefusedVaults } from './refused-vaults';
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
import { describeTransactionError, INSUFFICIENT_FUNDS } from './transaction-errors';
import { createTransactionLookup } from './transaction-lookup';
import { platformKeys, unixSeconds, type VaultTerms, vaultTerms } from './vault-terms';

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
  /** The program new vaults are made under (NEW_VAULTS_PROGRAM; docs/decisions/036). */
  newVaultsVersion?: 1 | 2;
}

/** Confirmation wait for a relayed transaction; a blockhash lives about a minute. */
const CONFIRM_TIMEOUT_MS = 90_000;

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
  newVaultsVersion = 1,
}: PaymentsDeps) {
  const { rpc } = chain;
  const stakeMax = solToLamports(STAKE_MAX_SOL);
  const prizeMax = solToLamports(majorPrizeMaxSol);
  const platform = platformKeys(escrowKeys);
  const feePayerFunds = createFeePayerFunds({ rpc, escrowKeys });

  /**
   * The rent the platform puts up when this payment lands: a new vault and its creator's receipt,
   * or a new receipt; nothing for a deposit into an existing receipt.
   */
  async function platformRent(built: {
    instruction: ProgramInstruction;
    newReceipt?: boolean;
    programVersion: number;
  }) {
    // A v2 vault's creator pays its rent: the platform puts up nothing (decision 036).
    if (built.instruction === 'create_vault')
      return built.programVersion === 1
        ? (await feePayerFunds.rent(VAULT_SIZE)) + (await feePayerFunds.rent(RECEIPT_SIZE))
        : 0n;
    return built.newReceipt ? feePayerFunds.rent(RECEIPT_SIZE) : 0n;
  }

  const programs: EscrowPrograms = { v1: escrowProgramId, v2: escrowProgramV2Id };
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
    const keys = await platform();
    const vault = address(escrow.publicKey);
    const programVersion = escrow.programVersion;
    if (terms) {
      const seed = vaultSeedBytes(escrow);
      if (!seed) throw new AppError('CONFLICT', PAYMENT_MESSAGES.escrowExpired);
      const deadline = unixSeconds(terms.deadline);
      const refundAfter = deadline + BigInt(REFUND_GRACE_MS / 1000);
      if (programVersion === 2) {
        const built = await buildCreateVaultV2Transaction(rpc, {
          programId: escrowProgramV2Id,
          creator: from,
          dareId: seed,
          terms: {
            kind: terms.kind,
            deadline,
            refundAfter,
            judges: judging.judges,
            threshold: terms.kind === 'major' ? judging.majorThreshold : judging.threshold,
            guardian: judging.guardian,
            canceller: keys.moderator,
            payoutWindow: judging.payoutWindowSeconds,
          },
          amount: lamports,
          memo: reference,
        });
        return { ...built, instruction: 'create_vault' as const, programVersion };
      }
      const built = await buildCreateVaultTransaction(rpc, {
        programId: escrowProgramId,
        creator: from,
        rentPayer: keys.rentPayer,
        dareId: seed,
        moderator: keys.moderator,
        deadline,
        refundAfter,
        amount: lamports,
        kind: terms.kind,
        memo: reference,
      });
      return { ...built, instruction: 'create_vault' as const, programVersion };
    }
    const built = await buildDepositTransaction(rpc, {
      programId: programOf(escrow),
      vault,
      payer: from,
      rentPayer: keys.rentPayer,
      amount: lamports,
      memo: reference,
    });
    return { ...built, instruction: 'deposit' as const, programVersion };
  }

  /**
   * Whether the escrow's vault takes a deposit now: null when it does not exist yet (a stake then
   * creates it); refused when it is not one of ours or no longer open.
   */
  async function openVault(escrow: EscrowWalletRow): Promise<'open' | null> {
    const vault = await fetchVault(rpc, programOf(escrow), address(escrow.publicKey));
    if (!vault) return null;
    const keys = await platform();
    // A v1 vault's rent is the platform's; a v2 vault's its creator's (decision 036).
    if (
      vault.moderator !== keys.moderator ||
      (vault.version === 1 && vault.rentPayer !== keys.rentPayer.address)
    )
      throw new AppError('CONFLICT', PAYMENT_MESSAGES.escrowExpired);
    if (vault.status !== 'open') throw new AppError('CONFLICT', PAYMENT_MESSAGES.vaultNotOpen);
    return 'open';
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
        newVaultsVersion === 2
          ? { programId: escrowProgramV2Id, version: 2 }
          : { programId: escrowProgramId, version: 1 },
        user.id,
        clock(),
      );
      return { publicKey: row.publicKey, expiresAt: row.expiresAt!.toISOString() };
    },

    /**
     * Builds the program transaction of a payment and records the payment intent it must satisfy
     * (decision 021). The escrow decides the purpose: the caller's own reservation is a stake
     * (`create_vault`, with the deadline and kind asked for, while its vault does not exist;
     * `deposit` after), an active dare's vault a contribution to its pool (`deposit`). DarePool's
     * fee payer signs as the rent payer of what the transaction creates; the wallet signs the rest.
     */
    async createTransaction(
      user: UserRow,
      body: { fromWallet: string; toWallet: string; amount: string; deadline?: string; kind?: VaultKind },
    ) {
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
        if (terms.deadlineRequested) {
          const problem = deadlineProblem(terms.deadline, now);
          if (problem) throw badRequest(problem, { fields: { deadline: problem } });
        }
        purpose = 'stake';
        // A vault created already (a stake paid, not yet recorded as a dare) takes a deposit.
        if ((await openVault(escrow)) === 'open') terms = null;
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
     * Relays a transaction the user's wallet signed and waits until it is confirmed, then books it
     * as money held for the payer. Only the exact message the server built for one of the caller's
     * open payment intents is relayed, once per intent: the wallet's signature must verify, and
     * DarePool's own signatures (the rent payer's) are put back as the server made them. The
     * server is not a relay for anything else.
     */
    async sendTransaction(user: UserRow, signedTransaction: string): Promise<Signature> {
      await limit(`send:${user.id}`, RATE_LIMITS.relayedTransactions, 'Too many transactions; wait a minute');
      let decoded: ReturnType<ReturnType<typeof getTransactionDecoder>['decode']>;
      let references: string[];
      try {
        decoded = getTransactionDecoder().decode(Buffer.from(signedTransaction, 'base64'));
        references = memoTexts(new Uint8Array(decoded.messageBytes));
      } catch {
        throw badRequest(PAYMENT_MESSAGES.invalidTransaction);
      }
      const messageBytes = new Uint8Array(decoded.messageBytes);
      const now = clock();
      const intent = await findOpenIntentByMessage(db, {
        userId: user.id,
        messageHash: messageHash(messageBytes),
        now,
      });
      if (!intent) {
        const related = await findOpenIntentsByReference(db, { userId: user.id, references, now });
        throw badRequest(related.length > 0 ? PAYMENT_MESSAGES.notAsPrepared : PAYMENT_MESSAGES.notPrepared);
      }
      const signatureBytes = decoded.signatures[intent.fromWallet as Address];
      const valid =
        signatureBytes &&
        (await verifySignature(
          await getPublicKeyFromAddress(intent.fromWallet as Address),
          signatureBytes as SignatureBytes,
          messageBytes,
        ));
      if (!valid) throw badRequest(PAYMENT_MESSAGES.badSignature);
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
        await confirmRelayed(signature);
        await see(current, signature);
        return signature;
      }
      try {
        await rpc.sendTransaction(wire, { encoding: 'base64', preflightCommitment: 'confirmed' }).send();
      } catch (error) {
        // Refused before it was forwarded: nothing was sent, so the payer may send it again.
        await releaseRelay(db, intent.id, signature);
        const reason = describeTransactionError(error);
        if (
          reason === INSUFFICIENT_FUNDS &&
          (await platformShort(intent, rentPayer.address in decoded.signatures))
        )
          throw new FeePayerLowError();
        throw new AppError('TRANSACTION_FAILED', reason);
      }
      await confirmRelayed(signature);
      await see(intent, signature);
      return signature;
    },

    /** Step 7: a verified payment credited to a new dare or a pool (creditPayment). */
    credit: createPaymentCredits({ db, chain, clock, programs, platform, refusedVaults }),

    /** One run of the lapsed-payments job (lifecycle.ts): credit, refund or look up what nobody finished. */
    settleLapsed: createLapsedPayments({ db, chain, clock, programs, refusedVaults }).run,

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
    }),
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
