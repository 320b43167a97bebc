/**
 * What the admin parts work with: the deps the wiring passes (`AdminDeps`) and, with their
 * defaults filled in, `Admin`, handed to each part's functions first.
 */
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { type Announce, noAnnouncements } from '#server/features/chat/announce';
import type { ClaimsService } from '#server/features/claims/service';
import type { RefundsService } from '#server/features/refunds/service';

export interface AdminDeps {
  db: Db;
  clock: Clock;
  refunds: RefundsService;
  claims: ClaimsService;
  announce?: Announce;
  /** Re-hashes a proof's stored video against its fingerprint (the submissions feature's). */
  proofChecks?: { recheck(submissionId: number): Promise<unknown> };
  /**
   * Refuses (throws) cancelling a dare whose v2 vault has a standing proposal: the program would
   * refuse the cancel, so nothing changes here either (the judging feature; decision 042).
   */
  assertCancellable?: (dareId: number) => Promise<void>;
}

export interface Admin extends AdminDeps {
  announce: Announce;
  assertCancellable: (dareId: number) => Promise<void>;
}

/** The admin parts' shared state: the deps, no announcements and no cancel check when not given. */
export function adminOf(deps: AdminDeps): Admin {
  return {
    ...deps,
    announce: deps.announce ?? noAnnouncements,
    assertCancellable: deps.assertCancellable ?? (async () => {}),
  };
}
