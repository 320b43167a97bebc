import type { Db } from '#server/db/client';
import type { SubmissionsService } from '#server/features/submissions/service';
import type { VideoAccess } from '#server/features/submissions/video-access';
import type { RateLimiter } from '#server/rate-limit/port';
import type { StoragePort } from '#server/storage/port';
import type { VideoQuota } from './quota';

/** What the videos parts work with, handed to each part's functions first. */
export interface VideosDeps {
  db: Db;
  storage: StoragePort;
  submissions: Pick<SubmissionsService, 'requireUploadableDare'>;
  limiter: RateLimiter;
  quota: VideoQuota;
  videoAccess: VideoAccess;
  bodyTimeoutMs: number;
  /** What unapproved videos one account, and one client address, may hold (bytes; decision 061). */
  unapprovedLimits: { accountBytes: number; addressBytes: number };
  clock: () => Date;
}
