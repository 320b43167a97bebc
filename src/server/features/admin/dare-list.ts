import type { AdminDare, AdminDareListQuery } from '#contract/admin';
import { normalizeSol } from '#contract/money';
import { toDare } from '#server/features/dares/dare-view';
import type { Admin } from './admin-deps';
import { listAdminDares, refundsOfDares } from './repo';

/**
 * Every dare (major ones included), newest first, each with its landed refunds: `refunded` is
 * the very rule that refuses Activate (hasRefunds).
 */
export async function listDares({ db }: Admin, query: AdminDareListQuery): Promise<AdminDare[]> {
  const rows = await listAdminDares(db, query);
  const landed = await refundsOfDares(
    db,
    rows.map((row) => row.dare.id),
  );
  return rows.map((row) => {
    const refunds = (landed.get(row.dare.id) ?? []).map((refund) => ({
      ...refund,
      amount: normalizeSol(refund.amount),
    }));
    return { ...toDare(row), refunded: refunds.length > 0, refunds };
  });
}
