import { address } from '@solana/kit';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import type { Tx } from '#server/db/client';
import type { TestContext } from './app';
import { payoutsService } from './payouts';

/**
 * What paying a v2 dare's named winners does up to sending (the payouts service's prepareExecute,
 * as payWinners runs it: the `execute` signed by the fee payer, recorded 'sending' in one database
 * transaction with `beforeRecord`), for tests of a process that stops before or after sending it.
 * The payout window must have passed.
 */
export async function recordExecute(
  ctx: TestContext,
  payout: { claimId: number; dareId: number; escrowWallet: string },
  beforeRecord: (tx: Tx, signature: string) => Promise<void>,
) {
  const programs = { v1: ctx.escrowProgramId, v2: ctx.escrowProgramV2Id };
  const vault = await fetchVault(ctx.chain.rpc, programs, address(payout.escrowWallet));
  const winners = vault?.judging?.proposal?.winners;
  if (!winners) throw new Error('recordExecute: no proposal stands on this vault');
  return payoutsService(ctx).prepareExecute({ ...payout, winners }, beforeRecord);
}
