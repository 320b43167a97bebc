import { apiRequest } from '#web/lib/api-client';

/**
 * POST /api/admin/submissions/{id}/mark-winner: on a v1 vault a claim (old rules); on a v2 vault
 * the propose transaction to sign, and with `signedTransaction` the relayed proposal or how many
 * judges must still sign (src/contract/judging.ts). The caller reads it with readNamingAnswer.
 */
export const markWinner = (input: { id: number; dareId: number; signedTransaction?: string }) =>
  apiRequest<unknown>('POST', `/api/admin/submissions/${input.id}/mark-winner`, {
    dareId: input.dareId,
    ...(input.signedTransaction ? { signedTransaction: input.signedTransaction } : {}),
  });
