import { useQuery } from '@tanstack/react-query';
import type { FeePayerStatus } from '#contract/admin';

/** GET /api/admin/fee-payer: the platform wallet that pays payouts' fees and new accounts' rent. */
export const useFeePayerStatus = () => useQuery<FeePayerStatus>({ queryKey: ['/api/admin/fee-payer'] });
