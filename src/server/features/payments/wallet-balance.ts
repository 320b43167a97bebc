/** A wallet's SOL: its balance, and test SOL on the embedded chain. */
import { address } from '@solana/kit';
import { AIRDROP_MAX_SOL } from '#contract/limits';
import { solToLamports } from '#contract/money';
import { PAYMENT_MESSAGES } from '#contract/payments';
import { badRequest, notFound } from '#server/errors';
import { RATE_LIMITS } from '#server/rate-limits';
import type { Payments } from './payment-deps';

/** A wallet's confirmed balance (lamports), limited per IP. */
export async function checkBalance(
  { chain, limit }: Payments,
  walletAddress: string,
  ip: string,
): Promise<bigint> {
  await limit(`balance:${ip}`, RATE_LIMITS.balanceChecks, 'Too many balance checks; wait a moment');
  const { value } = await chain.rpc.getBalance(address(walletAddress), { commitment: 'confirmed' }).send();
  return value;
}

/** Test SOL on the embedded chain only: a real cluster's SOL is never minted by us. */
export async function airdrop({ chain, limit }: Payments, walletAddress: string, amount: string, ip: string) {
  if (!chain.embedded) throw notFound(PAYMENT_MESSAGES.testSolUnavailable);
  const lamports = solToLamports(amount);
  if (lamports > solToLamports(AIRDROP_MAX_SOL)) throw badRequest(PAYMENT_MESSAGES.airdropMax);
  await limit(`airdrop:${ip}`, RATE_LIMITS.airdrops, 'Too many test SOL requests; wait a minute');
  const signature = await chain.airdrop(address(walletAddress), lamports);
  const { value: balance } = await chain.rpc
    .getBalance(address(walletAddress), { commitment: 'confirmed' })
    .send();
  return { signature, balance: balance.toString() };
}
