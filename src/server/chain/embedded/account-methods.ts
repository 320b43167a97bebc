import { type Address, getAddressDecoder } from '@solana/kit';
import {
  isMint,
  isTokenAccount,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  tokenAccountMint,
  tokenAccountOwner,
} from './account-parsers';
import type { EmbeddedLedger } from './embedded-ledger';
import { configParam, invalidParams } from './json-rpc';
import { parseProgramAccountsConfig } from './program-accounts';
import { type AccountLookup, addressParam, renderAccount } from './rpc-handler';

type Methods = Record<string, (params: readonly unknown[]) => unknown>;

const TOKEN_PROGRAMS = new Set([TOKEN_PROGRAM, TOKEN_2022_PROGRAM]);

/** Token accounts by owner or delegate, as wallets list a user's tokens. */
export function accountMethods(ledger: EmbeddedLedger, lookup: AccountLookup): Methods {
  const context = () => ({ slot: BigInt(ledger.currentSlot) });

  /** The token program the filter names, and the mint when it names one (agave's checks). */
  function tokenFilter(filter: unknown): { program: string; mint: string | null } {
    const { mint, programId } = (filter ?? {}) as { mint?: unknown; programId?: unknown };
    if ((mint === undefined) === (programId === undefined)) {
      throw invalidParams('expected { mint } or { programId }');
    }
    if (mint !== undefined) {
      const mintAddress = addressParam([mint], 0);
      const account = lookup(mintAddress);
      if (!account || !isMint(account)) throw invalidParams('Invalid param: could not find mint');
      return { program: account.programAddress as string, mint: mintAddress };
    }
    const program = addressParam([programId], 0);
    if (!TOKEN_PROGRAMS.has(program)) throw invalidParams('Invalid param: unrecognized Token program id');
    return { program, mint: null };
  }

  const byRole =
    (role: 'owner' | 'delegate') =>
    (params: readonly unknown[]): unknown => {
      const who = addressParam(params, 0);
      const { program, mint } = tokenFilter(params[1]);
      const config = configParam(params, 2);
      parseProgramAccountsConfig(config); // the same encodings getProgramAccounts takes
      const accounts = ledger.programAccounts(program as Address).filter((account) => {
        if (!isTokenAccount(account)) return false;
        if (mint !== null && tokenAccountMint(account) !== mint) return false;
        if (role === 'owner') return tokenAccountOwner(account) === who;
        const data = account.data as Uint8Array;
        const delegated =
          new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(72, true) === 1;
        return delegated && lookupDelegate(data) === who;
      });
      return {
        context: context(),
        value: accounts.map((account) => ({
          pubkey: account.address,
          account: renderAccount(account, config, lookup),
        })),
      };
    };

  return {
    getTokenAccountsByOwner: byRole('owner'),
    getTokenAccountsByDelegate: byRole('delegate'),
  };
}

/** COption<Pubkey> delegate: the tag at 72, the key at 76. */
function lookupDelegate(data: Uint8Array): string {
  return getAddressDecoder().decode(data.subarray(76, 108));
}
