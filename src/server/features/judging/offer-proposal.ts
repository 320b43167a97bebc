/** The propose a judge is handed to sign: the live one when it still serves, else a new one. */
import { type Address, address, getBase64EncodedWireTransaction } from '@solana/kit';
import type { ClaimType } from '#contract/claims';
import { JUDGING_MESSAGES } from '#contract/judging';
import { proposalShares } from '#contract/propose-layout';
import { priorityFeesOf } from '#server/chain/compute-budget';
import { fetchChainTime } from '#server/chain/escrow-program/chain-clock';
import {
  compileProposeTransaction,
  fetchEntryV2,
  findEntryAddress,
  type ProposeLifetime,
} from '#server/chain/escrow-program/v2';
import { messageHash } from '#server/chain/relay';
import { badRequest, conflict, notFound } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { type Judging, requireJudge, vaultOf } from './judged-vaults';
import { NAMING_MESSAGES } from './naming-messages';
import { stillLands, syncDare } from './proposal-sync';
import { fromSeconds, offered } from './proposal-view';
import { NO_BLOCK_HEIGHT_LIMIT, proposeNonce } from './propose-nonce';
import { findLiveProposal, findSubmissionForNaming, insertCollecting, replaceCollecting } from './repo';

export interface Winner {
  submissionId: number;
  userId: number;
  walletAddress: Address;
  claimType: ClaimType;
}

/** A submission of the dare that may be named a winner (approved, with a wallet to be paid to). */
export async function winnerOf(
  { db }: Judging,
  submissionId: number,
  dareId: number,
  claimType: ClaimType,
): Promise<Winner> {
  const submission = await findSubmissionForNaming(db, submissionId);
  if (!submission) throw notFound(NAMING_MESSAGES.submissionNotFound);
  if (submission.dareId !== dareId) throw badRequest(NAMING_MESSAGES.wrongDare);
  if (submission.status !== 'approved' && submission.status !== 'winner')
    throw badRequest(NAMING_MESSAGES.notApproved);
  if (!submission.walletAddress) throw conflict(NAMING_MESSAGES.noWallet);
  return {
    submissionId,
    userId: submission.userId,
    walletAddress: address(submission.walletAddress),
    claimType,
  };
}

/**
 * The propose for `winners` (in share order), for the calling judge to sign: the live one when
 * it names the same winners and can still land, else a new one (replacing a collecting one: it
 * can never land, as only the server adds the fee payer's signature, to the stored message).
 */
export async function offer(
  judging: Judging,
  user: UserRow,
  dare: { id: number; vault: string },
  winners: Winner[],
) {
  const { db, chain, clock, escrowKeys, escrowProgramV2Id } = judging;
  const { rpc } = chain;
  const vault = await vaultOf(judging, dare.vault);
  const caller = requireJudge(user, vault);
  await syncDare(judging, dare.id);
  const live = await findLiveProposal(db, dare.id);
  if (live?.status === 'proposed') throw conflict(JUDGING_MESSAGES.proposalStanding);
  if (vault.status === 'proposed') throw conflict(JUDGING_MESSAGES.proposalStanding);
  if (vault.status !== 'open') throw conflict(NAMING_MESSAGES.notOpen);
  const same = live?.winners.map((w) => `${w.submissionId}:${w.walletAddress}`).join(',');
  if (
    live &&
    same === winners.map((w) => `${w.submissionId}:${w.walletAddress}`).join(',') &&
    live.signers.includes(caller) &&
    (await stillLands(judging, live))
  )
    return offered(live);
  for (const winner of winners) {
    const entry = await findEntryAddress(escrowProgramV2Id, address(dare.vault), winner.walletAddress);
    if (!(await fetchEntryV2(rpc, escrowProgramV2Id, entry.address)))
      throw conflict(NAMING_MESSAGES.notEntered);
  }
  const shares = proposalShares(
    vault.lamports > vault.rent ? vault.lamports - vault.rent : 0n,
    winners.length,
  );
  if (shares[0]! <= 0n) throw conflict('This dare has no prize pool to pay');
  // The caller first, then other judges in the vault's order, up to its threshold.
  const signers = [caller, ...vault.judges.filter((j) => j !== caller)].slice(0, vault.threshold);
  const feePayer = await escrowKeys.feePayer();
  // One judge signs at once (a blockhash); several sign in turn, over longer than one lives.
  const lifetime: ProposeLifetime =
    signers.length > 1
      ? await proposeNonce(rpc, feePayer, address(dare.vault))
      : (await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()).value;
  const transaction = await compileProposeTransaction({
    programId: escrowProgramV2Id,
    vault: address(dare.vault),
    winners: winners.map((w) => w.walletAddress),
    judges: signers,
    feePayer: feePayer.address,
    lifetime,
    microLamports: await priorityFeesOf(rpc).microLamportsFor([feePayer.address, address(dare.vault)]),
  });
  const executesAt = fromSeconds((await fetchChainTime(rpc)) + vault.payoutWindow);
  const row = {
    dareId: dare.id,
    vault: dare.vault,
    winners: winners.map((w, i) => ({ ...w, lamports: shares[i]!.toString() })),
    wireTransaction: getBase64EncodedWireTransaction(transaction),
    messageHash: messageHash(new Uint8Array(transaction.messageBytes)),
    lastValidBlockHeight: 'nonce' in lifetime ? NO_BLOCK_HEIGHT_LIMIT : lifetime.lastValidBlockHeight,
    signers,
    signaturesNeeded: vault.threshold,
    executesAt,
    vetoCount: vault.vetoCount,
    createdBy: user.id,
    now: clock(),
  };
  const stored = live
    ? await replaceCollecting(db, live.id, live.messageHash, row)
    : await insertCollecting(db, row);
  if (!stored) throw conflict('This proposal is being prepared by another judge; try again in a moment');
  return offered(stored);
}
