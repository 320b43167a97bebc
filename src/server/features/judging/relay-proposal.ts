/**
 * A judge's signed propose relayed: kept while more judges must sign, else signed by the fee
 * payer, sent, confirmed and recorded. The server never signs as a judge (the program would refuse).
 */
import {
  address,
  getBase64EncodedWireTransaction,
  isSolanaError,
  partiallySignTransaction,
  type Signature,
  type SignatureBytes,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  type Transaction,
} from '@solana/kit';
import { JUDGING_MESSAGES } from '#contract/judging';
import { customErrorCode, escrowV2ErrorMessage, fetchVaultV2 } from '#server/chain/escrow-program/v2';
import type { ChainPort } from '#server/chain/port';
import {
  decodeSigned,
  decodeWire,
  isValidSignature,
  type RelayFailures,
  sendAndConfirm,
  transactionId,
} from '#server/chain/relay';
import { AppError, badRequest } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { announceAboutUser } from '#server/features/chat/announce';
import { type Judging, requireJudge, vaultOf } from './judged-vaults';
import { NAMING_MESSAGES } from './naming-messages';
import { stillLands, syncDare } from './proposal-sync';
import { fromSeconds, landed } from './proposal-view';
import { NO_BLOCK_HEIGHT_LIMIT } from './propose-nonce';
import { findLatestLandedProposal, findLiveProposal, recordProposed, saveSignatures } from './repo';

const failedBecause = (code: number | null) =>
  NAMING_MESSAGES.relayFailed(code === null ? 'the network refused it' : escrowV2ErrorMessage(code));

/** A relayed propose's failures: a propose that expired is one to sign again. */
const PROPOSE_FAILURES: RelayFailures = {
  refused(error) {
    const cause = (error as { cause?: unknown }).cause;
    const code = isSolanaError(cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)
      ? Number(cause.context.code)
      : null;
    return new AppError('TRANSACTION_FAILED', failedBecause(code));
  },
  failed: (transactionError) => failedBecause(customErrorCode(transactionError)),
  expired: () => badRequest(JUDGING_MESSAGES.wrongTransaction),
  unconfirmed: NAMING_MESSAGES.unconfirmed,
};

/**
 * A judge's signed propose: checked to be the stored message with valid signatures, kept while
 * more judges must sign, else signed by the fee payer, sent, confirmed and recorded (once, however
 * many relay it at the same time: the transaction has one id, and the record is conditional).
 */
export async function relay(
  judging: Judging,
  user: UserRow,
  dareId: number,
  vaultAddress: string,
  signedBase64: string,
) {
  const { db, chain, clock, escrowKeys, escrowProgramV2Id, announce } = judging;
  const vault = await vaultOf(judging, vaultAddress);
  requireJudge(user, vault);
  const signed = decodeSigned(signedBase64, JUDGING_MESSAGES.unreadableTransaction);
  const hash = signed.messageHash;
  await syncDare(judging, dareId);
  const live = await findLiveProposal(db, dareId);
  if (live?.status === 'proposed' && live.messageHash === hash) return landed(live);
  if (live?.status !== 'collecting' || live.messageHash !== hash)
    throw badRequest(JUDGING_MESSAGES.wrongTransaction);
  const stored = decodeWire(live.wireTransaction);
  const signatures: Record<string, SignatureBytes | null> = { ...stored.signatures };
  for (const [signer, signature] of Object.entries(signed.transaction.signatures)) {
    if (signature === null || !live.signers.includes(signer)) continue;
    if (!(await isValidSignature(signer, signature, signed.messageBytes)))
      throw badRequest(JUDGING_MESSAGES.wrongTransaction);
    signatures[signer] = signature;
  }
  const merged = { ...stored, signatures } as Transaction;
  const signedBy = live.signers.filter((judge) => signatures[judge]);
  if (signedBy.length < live.signaturesNeeded) {
    const wireTransaction = getBase64EncodedWireTransaction(merged);
    await saveSignatures(db, live.id, live.messageHash, { wireTransaction, signedBy, now: clock() });
    return { signaturesNeeded: live.signaturesNeeded - signedBy.length, transaction: wireTransaction };
  }
  if (!(await stillLands(judging, live))) throw badRequest(JUDGING_MESSAGES.wrongTransaction);
  const complete = await partiallySignTransaction([(await escrowKeys.feePayer()).keyPair], merged);
  const signature = transactionId(complete);
  const wire = getBase64EncodedWireTransaction(complete);
  await sendPropose(chain, wire, signature, live.lastValidBlockHeight);
  const after = await fetchVaultV2(chain.rpc, escrowProgramV2Id, address(vaultAddress));
  if (!after?.proposal) throw new AppError('CHAIN_UNAVAILABLE', NAMING_MESSAGES.unconfirmed);
  const recordedHere = await recordProposed(db, {
    proposalId: live.id,
    messageHash: live.messageHash,
    signature,
    executesAt: fromSeconds(after.proposal.executesAt),
    vetoCount: after.vetoCount,
    wireTransaction: wire,
    signedBy,
    now: clock(),
  });
  // Recorded by this call or by a parallel relay of the same transaction: the same proposal.
  const recorded = await findLatestLandedProposal(db, dareId);
  if (!recorded || recorded.signature !== signature)
    throw new AppError('CHAIN_UNAVAILABLE', NAMING_MESSAGES.unconfirmed);
  // Announced once, by the relay that recorded it, as Mark Winner announced on program v1.
  if (recordedHere)
    for (const winner of recorded.winners)
      if (winner.claimType === 'dare_winner')
        announceAboutUser(db, announce, dareId, winner.userId, (name) => `${name} won this dare!`);
  return landed(recorded);
}

/** Sends a complete propose (a parallel relay of the very same one is waited for) and confirms it. */
async function sendPropose(
  { rpc }: ChainPort,
  wire: string,
  signature: Signature,
  lastValidBlockHeight: bigint,
): Promise<void> {
  await sendAndConfirm(
    rpc,
    wire,
    signature,
    {
      sentBefore: 'wait',
      ...(lastValidBlockHeight === NO_BLOCK_HEIGHT_LIMIT ? {} : { lastValidBlockHeight }),
    },
    PROPOSE_FAILURES,
  );
}
