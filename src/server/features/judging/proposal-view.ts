/** A stored proposal as the API shows it: offered to judges to sign, or landed. */

import type { ProposalWinner, ProposeTransaction } from '#contract/judging';
import { lamportsToSol } from '#contract/money';
import type { ProposalRow, ProposalWinnerRecord } from './repo';

export const fromSeconds = (seconds: bigint) => new Date(Number(seconds) * 1000);

export function toWinners(records: ProposalWinnerRecord[]): ProposalWinner[] {
  return records.map((w) => ({
    submissionId: w.submissionId,
    walletAddress: w.walletAddress,
    amount: lamportsToSol(BigInt(w.lamports)),
  }));
}

export function offered(row: ProposalRow): ProposeTransaction {
  return {
    transaction: row.wireTransaction,
    winners: toWinners(row.winners),
    executesAt: row.executesAt.toISOString(),
  };
}

export function landed(row: ProposalRow) {
  return {
    proposal: {
      winners: toWinners(row.winners),
      executesAt: row.executesAt.toISOString(),
      signature: row.signature!,
    },
  };
}
