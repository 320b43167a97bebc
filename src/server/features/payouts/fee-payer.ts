import type { FeePayerStatus } from '#contract/admin';
import { NETWORK_FEE_SOL } from '#contract/limits';
import { solToLamports } from '#contract/money';
import type { ChainPort } from '#server/chain/port';
import type { PayoutsService } from './service';

/** Below this the embedded chain's fee payer is topped up at start (0.1 SOL = 20,000 payouts). */
const EMBEDDED_FEE_PAYER_MIN = 100_000_000n;
const EMBEDDED_FEE_PAYER_TOP_UP = 1_000_000_000n;
/** What the admin panel counts a payout's fee as: the product's network fee per transaction. */
const PAYOUT_FEE_LAMPORTS = solToLamports(NETWORK_FEE_SOL);

/**
 * The fee payer pays every payout's network fee. On the embedded chain it is funded by airdrop;
 * on a real cluster the operator funds it (docs/operations.md) and a low balance is only reported.
 */
export async function ensureFeePayerFunded(
  chain: ChainPort,
  payouts: PayoutsService,
): Promise<{ address: string; lamports: bigint; funded: boolean }> {
  const { address, lamports } = await payouts.feePayerBalance();
  if (!chain.embedded || lamports >= EMBEDDED_FEE_PAYER_MIN) return { address, lamports, funded: false };
  await chain.airdrop(address as Parameters<ChainPort['airdrop']>[0], EMBEDDED_FEE_PAYER_TOP_UP);
  return { address, lamports: lamports + EMBEDDED_FEE_PAYER_TOP_UP, funded: true };
}

/**
 * The fee payer as the admin panel shows it: its balance, roughly how many payouts that still pays
 * for, and whether it is below FEE_PAYER_MIN_SOL.
 */
export async function feePayerStatus(
  payouts: Pick<PayoutsService, 'feePayerBalance'>,
  minLamports: bigint,
): Promise<FeePayerStatus> {
  const { address, lamports } = await payouts.feePayerBalance();
  return {
    address,
    balance: lamports.toString(),
    payoutsLeft: Number(lamports / PAYOUT_FEE_LAMPORTS),
    minBalance: minLamports.toString(),
    low: lamports < minLamports,
  };
}
