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

interface AffordableInput {
  balance: bigint;
  amount: string;
  network: string;
  walletAddress: string;
  /**
   * Rent the payment lends besides the amount, returned when the dare ends: a new vault's and its
   * receipt's, or a first contribution's receipt's.
   */
  rentSol?: string;
  /** The network fee now, priority fee included (/api/config's networkFeeSol); the base fee without it. */
  feeSol?: string;
}

const feeOf = (input: AffordableInput) => input.feeSol ?? NETWORK_FEE_SOL;

function needed(input: AffordableInput): bigint {
  return solToLamports(input.amount) + solToLamports(feeOf(input)) + solToLamports(input.rentSol ?? '0');
}

export function insufficientBalanceMessage(input: AffordableInput): string {
  const rent = solToLamports(input.rentSol ?? '0');
  const rentPart = rent > 0n ? ` + ${lamportsToSol(rent)} SOL rent, returned when the dare ends` : '';
  return (
    `Insufficient balance. You have ${lamportsToSol(input.balance)} SOL on ${input.network}, ` +
    `but need ${lamportsToSol(needed(input))} SOL (${lamportsToSol(solToLamports(input.amount))} SOL + ` +
    `${feeOf(input)} SOL fee${rentPart}). Please add SOL to your wallet: ${input.walletAddress}`
  );
}

/**
 * docs/product.md#create-dare-form-rules: the balance must cover the amount plus the 0.000005 SOL network fee. Returns
 * the message of docs/product.md#dare-and-payment-messages when it does not, null when it does. Exact lamports, never floats.
 */
export function checkAffordable(input: AffordableInput): string | null {
  return input.balance >= needed(input) ? null : insufficientBalanceMessage(input);
}
