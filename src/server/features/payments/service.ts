/**
 * Payments: a stake or a pool contribution, from the wallet's transaction to money in a dare
 * (docs/decisions/021-money-on-the-program.md). Where each part is (docs/decisions/045-one-relay.md):
 *
 * - this file: the requests, put together under the names callers use; each part is a module of
 *   named functions taking the feature's shared state (`Payments`, payment-deps.ts) first.
 *   relay-payment.ts relays the wallet's signed transaction (the steps in
 *   src/server/chain/relay.ts) and books it; wallet-balance.ts is a balance and test SOL.
 *   routes.ts is their HTTP; lifecycle.ts schedules the job in jobs/.
 * - intents/: what a payment is asked to be before it is paid. intent.ts (lifetimes, the
 *   reference key, the row), escrow-reservations.ts (a vault address one user may fund for 30
 *   minutes), vault-terms.ts (a new vault's deadline, kind and refund grace; the platform's keys),
 *   reserve-escrow.ts (Create Dare step 3), create-payment.ts (a payment's transaction built and
 *   its intent recorded) over payment-transaction.ts and vault-to-pay.ts, wallet-contribution.ts
 *   (a Solana Actions deposit).
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
import type { Address } from '@solana/kit';
import type { CreateTransactionRequest } from '#contract/payments';
import { escrowProgramDecoder } from '#server/chain/escrow-program/decode';
import { VAULT_SIZE } from '#server/chain/escrow-program/layout';
import { VAULT_V2_SIZE } from '#server/chain/escrow-program/v2/layout';
import type { UserRow } from '#server/features/auth/user';
import { createPaymentCredits } from './crediting/credit-payment';
import { createTransactionLookup } from './explorer/transaction-lookup';
import { createTransaction } from './intents/create-payment';
import { reserveEscrow } from './intents/reserve-escrow';
import { buildWalletContribution } from './intents/wallet-contribution';
import { createLapsedPayments } from './jobs/lapsed-payments';
import { type PaymentsDeps, paymentsOf } from './payment-deps';
import { sendTransaction } from './relay-payment';
import { findExplorerNames } from './repo/explorer-names';
import { airdrop, checkBalance } from './wallet-balance';

/** What the payments service needs to refund a refused vault: the wiring passes the refunds service's. */
export type { RefusedVaults } from './jobs/refund-refused-vaults';
export type { PaymentsDeps } from './payment-deps';

export function createPaymentsService(deps: PaymentsDeps) {
  const payments = paymentsOf(deps);
  const { db, chain, clock, limiter, escrowProgramId, escrowProgramV2Id, programs, platform, ourVaults } =
    payments;
  const { refusedVaults } = payments;
  return {
    checkBalance: (walletAddress: string, ip: string) => checkBalance(payments, walletAddress, ip),
    /** Create Dare step 3: a dare vault's address only this user can fund for the next 30 minutes. */
    reserveEscrow: (user: UserRow) => reserveEscrow(payments, user),
    /** A payment's program transaction built, and the intent it must satisfy recorded. */
    createTransaction: (user: UserRow, body: CreateTransactionRequest) =>
      createTransaction(payments, user, body),
    /** A pool contribution asked for through a public link (Solana Actions). */
    buildWalletContribution: (input: { escrowWallet: string; from: Address; amount: string }) =>
      buildWalletContribution(payments, input),
    /** The wallet's signed transaction relayed, confirmed and booked. */
    sendTransaction: (user: UserRow, signedTransaction: string) =>
      sendTransaction(payments, user, signedTransaction),

    /** Step 7: a verified payment credited to a new dare or a pool (creditPayment). */
    credit: createPaymentCredits({ db, chain, clock, programs, platform, ourVaults, refusedVaults }),

    /** One run of the lapsed-payments job (lifecycle.ts): credit, refund or look up what nobody finished. */
    settleLapsed: createLapsedPayments({ db, chain, clock, programs, ourVaults, refusedVaults }).run,

    /** Test SOL on the embedded chain only: a real cluster's SOL is never minted by us. */
    airdrop: (walletAddress: string, amount: string, ip: string) =>
      airdrop(payments, walletAddress, amount, ip),

    /** One transaction for the local explorer page: cached, and limited per address. */
    transaction: createTransactionLookup({
      rpc: chain.rpc,
      limiter,
      decode: escrowProgramDecoder(escrowProgramId, escrowProgramV2Id),
      names: (addresses) => findExplorerNames(db, addresses),
      vaultSizes: new Map([
        ...(escrowProgramId ? [[escrowProgramId, VAULT_SIZE] as const] : []),
        [escrowProgramV2Id, VAULT_V2_SIZE],
      ]),
    }),
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
