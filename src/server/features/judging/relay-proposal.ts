/**
 * A judge's signed propose relayed: kept while more judges must sign, else signed by the fee
 * payer, sent, confirmed and recorded. The server never signs as a judge (the program would refuse).
 */
import {
  type Address,
  address,
  getBase64EncodedWireTransaction,
  isSolanaError,
  partiallySignTransaction,
  type SignatureBytes,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  type Transaction,
} from '@solana/kit';
import { JUDGING_MESSAGES } from '#contract/judging';
import { customErrorCode, escrowV2ErrorMessage, fetchVaultV2 } from '#server/chain/escrow-program/v2';
import {
  answer,
  decodeWire,
  type RelayFailures,
  relaySigned,
  type SignedTransaction,
} from '#server/chain/relay';
import { AppError, badRequest } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { announceAboutUser } from '#server/features/chat/announce';
import { type Judging, requireJudge, vaultOf } from './judged-vaults';
import { NAMING_MESSAGES } from './naming-messages';
import { stillLands, syncDare } from './proposal-sync';
import { fromSeconds, landed } from './proposal-view';
import { NO_BLOCK_HEIGHT_LIMIT } from './propose-nonce';
import {
  findLatestLandedProposal,
  findLiveProposal,
  type ProposalRow,
  recordProposed,
  saveSignatures,
} from './repo';

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

/** The judges' signatures in the wallet's transaction: the others are not theirs to add. */
function judgesSigning(signed: SignedTransaction, live: ProposalRow): string[] {
  return Object.entries(signed.transaction.signatures)
    .filter(([signer, signature]) => signature !== null && live.signers.includes(signer))
    .map(([signer]) => signer);
}

/** The stored propose with the judges' signatures the wallet added (checked), and who signed it. */
function merged(signed: SignedTransaction, live: ProposalRow) {
  const stored = decodeWire(live.wireTransaction);
  const signatures: Record<string, SignatureBytes | null> = { ...stored.signatures };
  for (const signer of judgesSigning(signed, live))
    signatures[signer] = signed.transaction.signatures[signer as Address]!;
  const signedBy = live.signers.filter((judge) => signatures[judge]);
  return { transaction: { ...stored, signatures } as Transaction, signedBy };
}

type ProposeAnswer = ReturnType<typeof landed> | { signaturesNeeded: number; transaction: string };

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
): Promise<ProposeAnswer> {
  const { db, chain, clock, escrowKeys, escrowProgramV2Id, announce } = judging;
  const vault = await vaultOf(judging, vaultAddress);
  requireJudge(user, vault);
  return relaySigned<ProposalRow, ProposeAnswer>({
    rpc: chain.rpc,
    signedBase64,
    unreadable: JUDGING_MESSAGES.unreadableTransaction,
    async match(signed) {
      await syncDare(judging, dareId);
      const live = await findLiveProposal(db, dareId);
      if (live?.status === 'proposed' && live.messageHash === signed.messageHash) return answer(landed(live));
      if (live?.status !== 'collecting' || live.messageHash !== signed.messageHash)
        throw badRequest(JUDGING_MESSAGES.wrongTransaction);
      return live;
    },
    signers: judgesSigning,
    badSignature: JUDGING_MESSAGES.wrongTransaction,
    async complete(signed, live) {
      const { transaction, signedBy } = merged(signed, live);
      if (signedBy.length < live.signaturesNeeded) {
        const wireTransaction = getBase64EncodedWireTransaction(transaction);
        await saveSignatures(db, live.id, live.messageHash, { wireTransaction, signedBy, now: clock() });
        return answer({
          signaturesNeeded: live.signaturesNeeded - signedBy.length,
          transaction: wireTransaction,
        });
      }
      if (!(await stillLands(judging, live))) throw badRequest(JUDGING_MESSAGES.wrongTransaction);
      return partiallySignTransaction([(await escrowKeys.feePayer()).keyPair], transaction);
    },
    // A parallel relay of the very same propose is waited for.
    options: ({ lastValidBlockHeight }) => ({
      sentBefore: 'wait',
      ...(lastValidBlockHeight === NO_BLOCK_HEIGHT_LIMIT ? {} : { lastValidBlockHeight }),
    }),
    failures: () => PROPOSE_FAILURES,
    async landed({ match: live, signed, wire, signature }) {
      const after = await fetchVaultV2(chain.rpc, escrowProgramV2Id, address(vaultAddress));
      if (!after?.proposal) throw new AppError('CHAIN_UNAVAILABLE', NAMING_MESSAGES.unconfirmed);
      const recordedHere = await recordProposed(db, {
        proposalId: live.id,
        messageHash: live.messageHash,
        signature,
        executesAt: fromSeconds(after.proposal.executesAt),
        vetoCount: after.vetoCount,
        wireTransaction: wire,
        signedBy: merged(signed, live).signedBy,
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
    },
  });
}
