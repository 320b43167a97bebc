import { NETWORK_FEE_SOL } from '#contract/limits';
import { lamportsToSol, solToLamports } from '#contract/money';
import { shortAddress } from '#web/lib/utils';

/**
 * docs/product.md#dare-and-payment-messages: the balance call failed. The first client then assumed a 10 SOL balance and
 * went on; we stop here instead. An assumed balance lets a user with too little SOL walk through
 * escrow, build and signing only to fail at send with a vaguer reason, and it hides the real
 * fault (a wrong network or an unreachable node), which this message points at.
 */
export function balanceUnavailableMessage(walletAddress: string): string {
  return `Failed to get balance of account ${shortAddress(walletAddress)}. Please check your wallet connection and try again.`;
}

export function insufficientBalanceMessage(input: {
  balance: bigint;
  amount: string;
  network: string;
  walletAddress: string;
}): string {
  const need = solToLamports(input.amount) + solToLamports(NETWORK_FEE_SOL);
  return (
    `Insufficient balance. You have ${lamportsToSol(input.balance)} SOL on ${input.network}, ` +
    `but need ${lamportsToSol(need)} SOL (${lamportsToSol(solToLamports(input.amount))} SOL + ` +
    `${NETWORK_FEE_SOL} SOL fee). Please add SOL to your wallet: ${input.walletAddress}`
  );
}

/**
 * docs/product.md#create-dare-form-rules: the balance must cover the amount plus the 0.000005 SOL network fee. Returns
 * the message of docs/product.md#dare-and-payment-messages when it does not, null when it does. Exact lamports, never floats.
 */
export function checkAffordable(input: {
  balance: bigint;
  amount: string;
  network: string;
  walletAddress: string;
}): string | null {
  const need = solToLamports(input.amount) + solToLamports(NETWORK_FEE_SOL);
  return input.balance >= need ? null : insufficientBalanceMessage(input);
}
