/**
 * The guardian's wallet pays its own veto (one signature's fee), so a guardian with no SOL cannot
 * stop a payout in its window: the embedded chain funds it at start, and on a cluster
 * `/api/health` and the admin panel say when it holds less than GUARDIAN_MIN_VETOES vetoes' fees.
 */
import type { Address, GetBalanceApi, Rpc } from '@solana/kit';
import { GUARDIAN_MIN_VETOES } from '#contract/health';
import { LAMPORTS_PER_SIGNATURE } from './escrow-program/entry-cost';
import type { ChainPort } from './port';

/** Ten vetoes' fees: below it the guardian is reported not ready. */
export const GUARDIAN_MIN_LAMPORTS = BigInt(GUARDIAN_MIN_VETOES) * LAMPORTS_PER_SIGNATURE;

/** What the embedded chain gives a guardian holding less than GUARDIAN_MIN_LAMPORTS (test SOL). */
const EMBEDDED_GUARDIAN_FUNDING = 1_000_000_000n;

export async function guardianBalance(rpc: Rpc<GetBalanceApi>, guardian: Address): Promise<bigint> {
  return (await rpc.getBalance(guardian, { commitment: 'confirmed' }).send()).value;
}

/** On the embedded chain, tops the guardian up with test SOL so its first veto can be paid. */
export async function fundGuardianOnEmbeddedChain(chain: ChainPort, guardian: Address): Promise<void> {
  if (!chain.embedded) return;
  if ((await guardianBalance(chain.rpc, guardian)) >= GUARDIAN_MIN_LAMPORTS) return;
  await chain.airdrop(guardian, EMBEDDED_GUARDIAN_FUNDING);
}
