/**
 * Whether a served video still matches its fingerprint (`proofMatches`), kept true to the bytes
 * without hashing on page views: the stored object is re-hashed when an admin approves it (before
 * it is shown to everyone), and by the videos' clean-up job, a few at a time, each at least once
 * a day. The result and its time are stored on the submission (decision 038). Links are never
 * fetched (the server does not request client-given URLs): their `proofMatches` stays null.
 */
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import type { StoragePort } from '#server/storage/port';
import { hashStoredObject } from './proof-hash';
import { findProofToCheck, type ProofToCheck, proofsDueForCheck, recordProofCheck } from './repo';
import { uploadedKey } from './video-url';

/** A stored video is re-hashed at least this often (when the job's budget allows)... */
export const PROOF_RECHECK_AGE_MS = 24 * 60 * 60_000;
/** ...and one run re-hashes at most this many (10 MB each at most: 200 MB read a run). */
export const PROOF_CHECKS_PER_RUN = 20;

export function createProofChecks({ db, storage, clock }: { db: Db; storage: StoragePort; clock: Clock }) {
  async function check(proof: ProofToCheck): Promise<boolean> {
    const key = uploadedKey(proof.videoUrl);
    // A video that is gone matches nothing.
    const hashed = key ? await hashStoredObject(storage, key) : null;
    const matches = hashed === proof.proofHash;
    await recordProofCheck(db, proof.id, { matches, at: clock() });
    return matches;
  }

  return {
    /** Re-hashes one submission's stored video; null when it has no fingerprinted upload. */
    async recheck(submissionId: number): Promise<boolean | null> {
      const proof = await findProofToCheck(db, submissionId);
      return proof ? check(proof) : null;
    },

    /** The clean-up job's share: the stored videos checked longest ago; answers those that no longer match. */
    async recheckDue(
      options: { maxAgeMs?: number; limit?: number } = {},
    ): Promise<{ checked: number; mismatched: number[] }> {
      const before = new Date(clock().getTime() - (options.maxAgeMs ?? PROOF_RECHECK_AGE_MS));
      const due = await proofsDueForCheck(db, before, options.limit ?? PROOF_CHECKS_PER_RUN);
      const mismatched: number[] = [];
      for (const proof of due) if (!(await check(proof))) mismatched.push(proof.id);
      return { checked: due.length, mismatched };
    },
  };
}

export type ProofChecks = ReturnType<typeof createProofChecks>;
