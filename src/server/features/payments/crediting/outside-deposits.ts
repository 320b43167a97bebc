import type { Rpc, SolanaRpcApi } from '@solana/kit';
import type { Db } from '#server/db/client';
import { violatedConstraint } from '#server/db/errors';
import { addToDarePool, findUserIdByWallet, lockDareStanding } from '#server/features/payments/repo/credits';
import { addToEscrowBalance } from '#server/features/payments/repo/escrow-wallets';
import { findIntentByMessage } from '#server/features/payments/repo/payment-intents';
import { appendLedgerEntry } from '#server/ledger/repo';
import { fetchLandedTransaction } from './landed-transactions';

/** One deposit the program ran: its payer and what it added to the payer's receipt. */
export interface OutsideDeposit {
  payer: string;
  amount: bigint;
}

/**
 * What became of a landed transaction's deposits: 'credited' (now, or by another run first),
 * 'intent' (a message the server built: its payment intent books it, through the relay or the
 * lapsed-payments job), 'unread' (the node does not serve it yet: ask again).
 */
export type OutsideDepositsResult = 'credited' | 'intent' | 'unread';

/**
 * Deposits made straight on chain into a dare's vault, with no message of ours (decision 058):
 * they are in the pot, so they are credited to their payers, exactly once: a `contribution` line
 * per payer (the sum of its deposits in the transaction, as the program added them to its
 * receipt), naming the account whose wallet paid, or the bare wallet when no account has it (the
 * ledger's counterparty; its refund returns it with the vault's), the escrow's balance, and the
 * dare's shown pool. A pool row (Profile's list) is not written: its signature is unique across
 * dares, and one transaction may pay into many vaults.
 */
export async function creditOutsideDeposits(
  db: Db,
  rpc: Rpc<SolanaRpcApi>,
  input: {
    escrowWallet: string;
    dareId: number | null;
    signature: string;
    deposits: readonly OutsideDeposit[];
    now: Date;
  },
): Promise<OutsideDepositsResult> {
  const landed = await fetchLandedTransaction(rpc, input.signature);
  if (!landed) return 'unread';
  if (landed.err !== null) return 'credited';
  if (await findIntentByMessage(db, landed.messageHash)) return 'intent';
  const byPayer = new Map<string, bigint>();
  for (const { payer, amount } of input.deposits) byPayer.set(payer, (byPayer.get(payer) ?? 0n) + amount);
  try {
    await db.transaction(async (tx) => {
      if (input.dareId !== null) await lockDareStanding(tx, input.dareId);
      for (const [payer, lamports] of byPayer) {
        await appendLedgerEntry(tx, {
          kind: 'contribution',
          escrowWallet: input.escrowWallet,
          counterparty: payer,
          direction: 1,
          lamports,
          signature: input.signature,
          dareId: input.dareId,
          userId: await findUserIdByWallet(tx, payer),
          now: input.now,
        });
        await addToEscrowBalance(tx, input.escrowWallet, lamports, input.now);
        if (input.dareId !== null) await addToDarePool(tx, input.dareId, lamports, input.now);
      }
    });
  } catch (error) {
    // Another run (another instance) credited this transaction first: nothing more to do.
    if (violatedConstraint(error) !== 'ledger_entries_movement_unique') throw error;
  }
  return 'credited';
}
