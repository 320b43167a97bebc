import type { Address, EncodedAccount, MaybeEncodedAccount } from '@solana/kit';
import {
  isTokenAccount,
  mintDecimals,
  tokenAccountAmount,
  tokenAccountMint,
  tokenAccountOwner,
  tokenAmount,
  type UiTokenAmount,
} from './account-parsers';

/** One entry of a transaction's preTokenBalances/postTokenBalances, as agave writes it. */
export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: UiTokenAmount;
}

/**
 * The token accounts among a transaction's keys and what each holds, read at one moment (before or
 * after it runs), as agave's collect_token_balances: every key but the programs the transaction
 * invokes, whose account a token program owns and parses as a token account of a mint that exists.
 */
export function tokenBalancesOf(
  accountKeys: readonly string[],
  invoked: ReadonlySet<number>,
  read: (address: Address) => MaybeEncodedAccount,
): TokenBalance[] {
  const decimalsByMint = new Map<string, number | null>();
  const balances: TokenBalance[] = [];
  accountKeys.forEach((key, accountIndex) => {
    if (invoked.has(accountIndex)) return;
    const account = read(key as Address);
    if (!account.exists || !isTokenAccount(account)) return;
    const mint = tokenAccountMint(account);
    let decimals = decimalsByMint.get(mint);
    if (decimals === undefined) {
      const mintAccount = read(mint as Address);
      decimals = mintAccount.exists ? mintDecimals(mintAccount as EncodedAccount) : null;
      decimalsByMint.set(mint, decimals);
    }
    if (decimals === null) return;
    balances.push({
      accountIndex,
      mint,
      owner: tokenAccountOwner(account),
      programId: account.programAddress,
      uiTokenAmount: tokenAmount(tokenAccountAmount(account), decimals),
    });
  });
  return balances;
}
