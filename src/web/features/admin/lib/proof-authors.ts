import type { AdminSubmission } from '#contract/admin';
import { shortAddress } from '#web/lib/utils';

/** Who wrote the proofs the panel lists, by submission: the name to show and the wallet a win pays. */
export type ProofAuthors = ReadonlyMap<number, { username: string; walletAddress: string | null }>;

export function proofAuthors(submissions: readonly Pick<AdminSubmission, 'id' | 'users'>[]): ProofAuthors {
  return new Map(submissions.map((submission) => [submission.id, submission.users]));
}

/** A wallet as the panel names it: its proof author's username when listed, else a short address. */
export function nameOfWallet(authors: ProofAuthors, wallet: string): string {
  for (const author of authors.values()) if (author.walletAddress === wallet) return author.username;
  return shortAddress(wallet);
}

/**
 * The winners a judge picked, in share order, as a propose must pay them: each proof's author's
 * wallet from the panel's own list (a proof it does not list has no known wallet, so the check
 * refuses rather than guesses).
 */
export function pickedWinners(
  authors: ProofAuthors,
  submissionIds: readonly (number | null | undefined)[],
): { wallet: string | null; name: string }[] {
  return submissionIds.map((id) => {
    const author = id == null ? undefined : authors.get(id);
    return { wallet: author?.walletAddress ?? null, name: author?.username ?? `proof ${id ?? '?'}` };
  });
}
