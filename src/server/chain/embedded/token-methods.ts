import type { Address, EncodedAccount } from '@solana/kit';
import {
  isMint,
  isTokenAccount,
  mintDecimals,
  mintSupply,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  tokenAccountAmount,
  tokenAccountMint,
  tokenAmount,
} from './account-parsers';
import type { EmbeddedLedger } from './embedded-ledger';
import { JsonRpcError, RPC_ERROR } from './json-rpc';
import type { AccountLookup } from './rpc-handler';
import { addressParam } from './rpc-handler';

type Methods = Record<string, (params: readonly unknown[]) => unknown>;

/** -32602 with agave's own words (its token methods carry no "Invalid params:" prefix). */
const invalidParams = (message: string) => new JsonRpcError(RPC_ERROR.invalidParams, message);

/** agave answers getTokenLargestAccounts with at most this many accounts. */
const LARGEST_TOKEN_ACCOUNTS = 20;
const TOKEN_PROGRAMS = new Set<string>([TOKEN_PROGRAM, TOKEN_2022_PROGRAM]);

/**
 * A token account's balance, a mint's supply and its largest holders, in agave's shapes and with
 * its error messages (UiTokenAmount: amount, decimals, uiAmount, uiAmountString). Token-2022's
 * interest-bearing and scaled amounts are not applied: the raw amount is shown.
 */
export function tokenMethods(ledger: EmbeddedLedger, lookup: AccountLookup): Methods {
  const context = () => ({ slot: BigInt(ledger.currentSlot) });

  function mintParam(params: readonly unknown[], missing: string): EncodedAccount {
    const mint = lookup(addressParam(params, 0));
    if (!mint) throw invalidParams(missing);
    if (!TOKEN_PROGRAMS.has(mint.programAddress) || !isMint(mint)) {
      throw invalidParams('Invalid param: not a Token mint');
    }
    return mint;
  }

  return {
    getTokenAccountBalance: (params) => {
      const account = lookup(addressParam(params, 0));
      if (!account) throw invalidParams('Invalid param: could not find account');
      if (!isTokenAccount(account)) throw invalidParams('Invalid param: not a Token account');
      const decimals = mintDecimals(lookup(tokenAccountMint(account) as Address));
      if (decimals === null) throw invalidParams('Invalid param: could not find mint');
      return { context: context(), value: tokenAmount(tokenAccountAmount(account), decimals) };
    },
    getTokenSupply: (params) => {
      const mint = mintParam(params, 'Invalid param: could not find account');
      return { context: context(), value: tokenAmount(mintSupply(mint), mintDecimals(mint) ?? 0) };
    },
    getTokenLargestAccounts: (params) => {
      const mint = mintParam(params, 'Invalid param: could not find mint');
      const decimals = mintDecimals(mint) ?? 0;
      const holders = ledger
        .programAccounts(mint.programAddress)
        .filter((account) => isTokenAccount(account) && tokenAccountMint(account) === mint.address)
        .map((account) => ({ address: account.address, amount: tokenAccountAmount(account) }))
        .sort((a, b) => (b.amount > a.amount ? 1 : b.amount < a.amount ? -1 : 0))
        .slice(0, LARGEST_TOKEN_ACCOUNTS);
      return {
        context: context(),
        value: holders.map(({ address, amount }) => ({ address, ...tokenAmount(amount, decimals) })),
      };
    },
  };
}
