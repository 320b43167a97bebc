import { createReadStream } from 'node:fs';
import {
  type Address,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  partiallySignTransaction,
} from '@solana/kit';
import { UPLOADED_VIDEO_PREFIX } from '#contract/submissions';
import type { EscrowKeys } from '#server/chain/escrow-keys';
import type { ChainPort } from '#server/chain/port';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { createAdminService } from '#server/features/admin/service';
import type { UserRow } from '#server/features/auth/user';
import type { Announce } from '#server/features/chat/announce';
import { createLocalChatBus } from '#server/features/chat/bus';
import { createChatService } from '#server/features/chat/service';
import { createClaimsService } from '#server/features/claims/service';
import { ensureFeePayerFunded } from '#server/features/payouts/fee-payer';
import { createPayoutsService } from '#server/features/payouts/service';
import { createRefundsService } from '#server/features/refunds/service';
import { createHashingStream } from '#server/features/submissions/proof-hash';
import { createSubmissionsService } from '#server/features/submissions/service';
import { createVideoAccess } from '#server/features/submissions/video-access';
import { replacePendingUpload } from '#server/features/videos/repo';
import { MemoryRateLimiter } from '#server/rate-limit/memory';
import type { StoragePort } from '#server/storage/port';

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
  /** Marked winner by the admin, then claimed by its author: the prize is paid on chain. */
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
    db: Db;
    chain: ChainPort;
    escrowKeys: EscrowKeys;
    clock: Clock;
    storage: StoragePort;
    escrowProgramId: Address;
    escrowProgramV2Id: Address;
  },
  { proofs, chat: messages }: { proofs: DemoProof[]; chat: DemoChat[] },
): Promise<void> {
  const { db, clock, storage } = deps;
  const limiter = new MemoryRateLimiter(() => clock().getTime());
  // No socket is connected during the seed: the local bus has nobody to deliver to.
  const chat = createChatService({ db, bus: createLocalChatBus(), clock, limiter });
  // Announcements are fire-and-forget in the services; the seed keeps them to wait for them.
  const announced: Promise<unknown>[] = [];
  const announce: Announce = (dareId, message) => {
    announced.push(chat.postSystemMessage(dareId, message));
  };
  const payouts = createPayoutsService({
    ...deps,
    escrowPrograms: { v1: deps.escrowProgramId, v2: deps.escrowProgramV2Id },
  });
  // The seed runs before the app's start-up funds the fee payer, and pays a prize: fund it now.
  await ensureFeePayerFunded(deps.chain, payouts);
  const claims = createClaimsService({ ...deps, payouts });
  const refunds = createRefundsService({ ...deps, payouts });
  const admin = createAdminService({ db, clock, refunds, claims, announce });
  const videoAccess = createVideoAccess({ secret: deps.escrowKeys.secretFor('video-links'), clock });
  const submissions = createSubmissionsService({ ...deps, videoAccess, limiter });

  for (const proof of proofs) {
    const file = new URL(`./videos/${proof.video}.mp4`, import.meta.url);
    // Hashed on its way to the store, as POST /api/upload-video does (decision 038).
    const hasher = createHashingStream();
    const stored = await storage.put(createReadStream(file).pipe(hasher), 'video/mp4');
    // Uploaded by its author for this dare, as POST /api/upload-video records it.
    await replacePendingUpload(db, {
      key: stored.key,
      userId: proof.author.row.id,
      dareId: proof.dareId,
      size: stored.size,
      sha256: hasher.digest(),
      now: clock(),
    });
    const videoUrl = `${UPLOADED_VIDEO_PREFIX}${stored.key}`;
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
    if (proof.wins) {
      await admin.markWinner(submission.id, proof.dareId);
      const claim = await claims.claimPrize(author, submission.id);
      if (claim.status !== 'paid') throw new Error(`Demo prize not paid: ${claim.status}`);
    }
  }
  for (const { user, dareId, message } of messages) await chat.postUserMessage(user, { dareId, message });

  // An announcement first looks up a username, then posts: wait until no new one appears.
  for (let seen = -1; seen !== announced.length; ) {
    seen = announced.length;
    await Promise.all(announced);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
