import { createReadStream } from 'node:fs';
import {
  type Address,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  partiallySignTransaction,
} from '@solana/kit';
import type { ChainPort } from '#server/chain/port';
import type { UserRow } from '#server/features/auth/user';
import { ensureFeePayerFunded } from '#server/features/payouts/fee-payer';
import { createHashingStream } from '#server/features/submissions/proof-hash';
import type { Judging } from '#server/judging-keys';
import type { StoragePort } from '#server/storage/port';
import type { DemoServices } from './demo-services';

/** A few seconds of ffmpeg test pattern each (see docs/decisions/018), kept under 100 KB. */
export type DemoVideo = 'cold-shower' | 'rubiks-cube' | 'summit-sunrise' | 'push-ups';

export interface DemoProof {
  /** The author, and their demo wallet's keys: they sign the entry, as the author's wallet would. */
  author: { row: UserRow; keys: CryptoKeyPair };
  dareId: number;
  video: DemoVideo;
  description: string;
  featured?: boolean;
  voters?: UserRow[];
  /**
   * Named winner by the demo admin's judge wallet (a propose); once the payout window has passed,
   * claimed by its author: the prize is paid on chain by execute.
   */
  wins?: boolean;
}

export interface DemoChat {
  user: UserRow;
  dareId: number | null;
  message: string;
}

/**
 * What makes the demo look used: proofs uploaded into storage, approved (some featured), voted
 * on, one winner paid from its escrow, and chat. Every step goes through the service the API
 * calls for it, so the rows, the ledger and the chain agree exactly as after real use.
 */
export async function seedActivity(
  deps: {
    chain: ChainPort;
    storage: StoragePort;
    /** The demo admin: its wallet signs the propose when it is one of the vaults' judges. */
    judge: { row: UserRow; keys: CryptoKeyPair };
    /** Who judges new vaults: JUDGE_WALLETS may name others than the demo admin. */
    judging: Judging;
    payoutWindowPassed?: () => Promise<void>;
  },
  { payouts, claims, admin, submissions, chat, judging, videos }: DemoServices,
  { proofs, chat: messages }: { proofs: DemoProof[]; chat: DemoChat[] },
): Promise<void> {
  const { storage } = deps;
  // The seed runs before the app's start-up funds the fee payer, and pays a prize: fund it now.
  await ensureFeePayerFunded(deps.chain, payouts);
  const named: { author: UserRow; submissionId: number }[] = [];
  // With JUDGE_WALLETS naming other wallets (or more than one signature needed), the demo admin
  // cannot name a winner alone: the demo's winning proof then stays approved, and its judges name
  // it in the admin panel like any other.
  const demoAdminJudges =
    deps.judging.threshold === 1 && deps.judging.judges.includes(deps.judge.row.walletAddress as Address);

  for (const proof of proofs) {
    const file = new URL(`./videos/${proof.video}.mp4`, import.meta.url);
    // Hashed on its way to the store, as POST /api/upload-video does (decision 038).
    const hasher = createHashingStream();
    const stored = await storage.put(createReadStream(file).pipe(hasher), 'video/mp4');
    // Uploaded by its author for this dare, as POST /api/upload-video records it.
    const videoUrl = await videos.recordStoredUpload(proof.author.row.id, proof.dareId, {
      key: stored.key,
      size: stored.size,
      sha256: hasher.digest(),
    });
    // As Submit Video does: the entry built by the server, signed by the author's wallet, relayed.
    const author = proof.author.row;
    const { transaction } = await submissions.enterTransaction(author, proof.dareId, { videoUrl });
    const decoded = getTransactionDecoder().decode(Buffer.from(transaction, 'base64'));
    const signedEntryTransaction = getBase64EncodedWireTransaction(
      await partiallySignTransaction([proof.author.keys], decoded),
    );
    const submission = await submissions.submit(author, proof.dareId, {
      videoUrl,
      description: proof.description,
      signedEntryTransaction,
    });
    await admin.updateSubmission(submission.id, { status: 'approved', is_featured: proof.featured ?? false });
    for (const voter of proof.voters ?? []) await submissions.vote(voter, submission.id);
    if (proof.wins && demoAdminJudges) {
      // As the admin panel does: the judge's wallet signs the propose the server built, then relays it.
      const offered = await judging.markWinner(deps.judge.row, submission.id, { dareId: proof.dareId });
      if (!offered || !('transaction' in offered)) throw new Error('The demo vault is not judged');
      const propose = getTransactionDecoder().decode(Buffer.from(offered.transaction, 'base64'));
      const signedTransaction = getBase64EncodedWireTransaction(
        await partiallySignTransaction([deps.judge.keys], propose),
      );
      const relayed = await judging.markWinner(deps.judge.row, submission.id, {
        dareId: proof.dareId,
        signedTransaction,
      });
      if (!relayed || !('proposal' in relayed)) throw new Error('The demo proposal did not land');
      named.push({ author, submissionId: submission.id });
    }
  }
  if (deps.payoutWindowPassed && named.length > 0) {
    await deps.payoutWindowPassed();
    for (const { author, submissionId } of named) {
      const claim = await claims.claimPrize(author, submissionId);
      if (claim.status !== 'paid') throw new Error(`Demo prize not paid: ${claim.status}`);
    }
  }
  for (const { user, dareId, message } of messages) await chat.postUserMessage(user, { dareId, message });
}
