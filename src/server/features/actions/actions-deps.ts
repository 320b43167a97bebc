import type { ChainPort } from '#server/chain/port';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import type { DaresService } from '#server/features/dares/service';
import type { PaymentsService } from '#server/features/payments/service';
import type { RateLimiter } from '#server/rate-limit/port';

/** What the Actions' parts work with, handed to each part's functions first. */
export interface ActionsDeps {
  db: Db;
  chain: ChainPort;
  clock: Clock;
  limiter: RateLimiter;
  dares: Pick<DaresService, 'getDare'>;
  payments: Pick<PaymentsService, 'buildWalletContribution'>;
  /** The vault notice (payouts): credits every deposit made straight into the vault, once. */
  noticeDeposits: (target: { escrowWallet: string; dareId: number }) => Promise<unknown>;
}
