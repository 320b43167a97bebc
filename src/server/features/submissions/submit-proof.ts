/**
 * Submitting a proof: the entry transaction a user signs to enter the dare on chain, then the
 * proof recorded once that entry is relayed and confirmed (docs/product.md#submit-video-rules).
 */
import { SUBMISSION_MESSAGES, type SubmitVideoRequest, UPLOADED_VIDEO_PREFIX } from '#contract/submissions';
import { violatedConstraint } from '#server/db/errors';
import { badRequest, conflict } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { requireEntrantWallet, requireOpenDare } from './open-dare';
import { proofHashOf } from './proof-hash';
import {
  attachUpload,
  hasSubmitted,
  insertSubmission,
  isCopiedProof,
  isOwnPendingUpload,
  recordedUploadHash,
  recordUploadHash,
} from './repo';
import type { Submissions } from './submission-deps';
import { showSubmission } from './submission-lists';
import { uploadedKey } from './video-url';

const notYourUpload = () =>
  badRequest(SUBMISSION_MESSAGES.ownUpload, { fields: { videoUrl: SUBMISSION_MESSAGES.ownUpload } });

/**
 * The proof at `videoUrl` as the user may submit it to this dare, and its fingerprint: our
 * upload paths must name a stored upload that is the user's own for this dare and not taken by
 * a submission yet (never another's proof); anything else is an https link (the schema said so).
 */
async function submittableProof(
  { db, storage }: Submissions,
  user: UserRow,
  dareId: number,
  videoUrl: string,
) {
  const key = uploadedKey(videoUrl);
  if (videoUrl.startsWith(UPLOADED_VIDEO_PREFIX) && !(key && (await storage.stat(key)))) {
    throw badRequest(SUBMISSION_MESSAGES.videoUrl, {
      fields: { videoUrl: SUBMISSION_MESSAGES.videoUrl },
    });
  }
  const upload = key ? { key, userId: user.id, dareId } : null;
  if (upload && !(await isOwnPendingUpload(db, upload))) throw notYourUpload();
  const proofHash = await proofHashOf(videoUrl, {
    storage,
    recordedUploadHash: (uploadKey) => recordedUploadHash(db, uploadKey),
    recordUploadHash: (uploadKey, sha256) => recordUploadHash(db, uploadKey, sha256),
  });
  // Deleted since the check above (the clean-up, or a newer upload replacing it).
  if (proofHash === null) throw notYourUpload();
  // Refused before any entry is built or relayed: nothing is fixed on chain for a copy.
  if (await isCopiedProof(db, { userId: user.id, proofHash, videoUrl }))
    throw conflict(SUBMISSION_MESSAGES.copiedProof, {
      fields: { videoUrl: SUBMISSION_MESSAGES.copiedProof },
    });
  return { upload, proofHash };
}

/**
 * POST /api/dares/{id}/enter-transaction: the caller's `enter` for the dare's vault, for a
 * user with a registered wallet who has no proof on this open dare and has not entered. The
 * video is checked as submit checks it; a v2 entry carries its fingerprint.
 */
export async function enterTransaction(
  submissions: Submissions,
  user: UserRow,
  dareId: number,
  body: { videoUrl: string },
) {
  const wallet = requireEntrantWallet(user);
  const dare = await requireOpenDare(submissions, dareId);
  if (await hasSubmitted(submissions.db, dareId, user.id))
    throw conflict(SUBMISSION_MESSAGES.alreadySubmitted);
  const proof = await submittableProof(submissions, user, dareId, body.videoUrl);
  return submissions.entries.transaction(user, wallet, dare, proof.proofHash);
}

/**
 * A proof, recorded once its author entered the dare on chain: the signed entry is relayed and
 * confirmed first in the same request (docs/product.md#submit-video-rules).
 */
export async function submitProof(
  submissions: Submissions,
  user: UserRow,
  dareId: number,
  body: SubmitVideoRequest,
) {
  const { db, clock, entries } = submissions;
  const wallet = requireEntrantWallet(user);
  const dare = await requireOpenDare(submissions, dareId);
  const { upload, proofHash } = await submittableProof(submissions, user, dareId, body.videoUrl);
  // Nothing is relayed for a proof that could not be recorded anyway.
  if (await hasSubmitted(db, dareId, user.id)) throw conflict(SUBMISSION_MESSAGES.alreadySubmitted);
  // The entry's fingerprint (v2) is the proof's, or nothing was relayed or is recorded.
  const entered = await entries.ensureEntered(user, wallet, dare, body.signedEntryTransaction, proofHash);
  const now = clock();
  try {
    const { id, attachedBytes } = await db.transaction(async (tx) => {
      const id = await insertSubmission(tx, {
        dareId,
        userId: user.id,
        videoUrl: body.videoUrl,
        description: body.description,
        // An upload's hash was taken of the bytes as they were stored: they match now. A
        // link's bytes are someone else's to change: never said to match (decision 038).
        proof:
          entered.proofHash === null
            ? null
            : { hash: entered.proofHash, matches: upload ? true : null, checkedAt: upload ? now : null },
        now,
      });
      if (!upload) return { id, attachedBytes: null };
      // Taken by another submission since the check above: nothing is recorded.
      const attachedBytes = await attachUpload(tx, { ...upload, submissionId: id });
      if (attachedBytes === null) throw notYourUpload();
      return { id, attachedBytes };
    });
    if (attachedBytes !== null) submissions.onUploadAttached?.(attachedBytes);
    return showSubmission(submissions, id);
  } catch (error) {
    if (violatedConstraint(error) === 'dare_submissions_one_per_user')
      throw conflict(SUBMISSION_MESSAGES.alreadySubmitted);
    throw error;
  }
}
