import type { ChainPort } from '../../chain/port';
import type { PayoutsService } from './service';

/** Below this the embedded chain's fee payer is topped up at start (0.1 SOL = 20,000 payouts). */
const EMBEDDED_FEE_PAYER_MIN = 100_000_000n;
const EMBEDDED_FEE_PAYER_TOP_UP = 1_000_000_000n;

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
