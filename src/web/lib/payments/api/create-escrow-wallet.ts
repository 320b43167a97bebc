import type { z } from 'zod';
import type { createEscrowWalletResponseSchema } from '#contract/payments';
import { apiRequest } from '#web/lib/api-client';

export type EscrowReservation = z.infer<typeof createEscrowWalletResponseSchema>;

/** POST /api/create-escrow-wallet: a fresh escrow reserved for the caller's new dare (30 minutes). */
export function createEscrowWallet(): Promise<EscrowReservation> {
  return apiRequest<EscrowReservation>('POST', '/api/create-escrow-wallet');
}
