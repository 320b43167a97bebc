import { lamportsToSol } from '#contract/money';

/** The signed SOL change between two lamport balances: '+0.5', '-0.500005', '0'. */
export function balanceChange(preBalance: string, postBalance: string): string {
  const delta = BigInt(postBalance) - BigInt(preBalance);
  return delta > 0n ? `+${lamportsToSol(delta)}` : lamportsToSol(delta);
}
