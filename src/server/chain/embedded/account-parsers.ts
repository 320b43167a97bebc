import { type EncodedAccount, getAddressDecoder } from '@solana/kit';

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const SYSVAR_OWNER = 'Sysvar1111111111111111111111111111111111111';
const CLOCK = 'SysvarC1ock11111111111111111111111111111111';
const RENT = 'SysvarRent111111111111111111111111111111111';
const EPOCH_SCHEDULE = 'SysvarEpochSchedu1e111111111111111111111111';
export const TOKEN_ACCOUNT_SIZE = 165;
const MINT_SIZE = 82;
// Token-2022 puts an account-type byte after the base layout when extensions follow.
const ACCOUNT_TYPE_MINT = 1;
const ACCOUNT_TYPE_ACCOUNT = 2;
const TOKEN_STATES = ['uninitialized', 'initialized', 'frozen'];
const NONCE_SIZE = 80;

const addressAt = (data: Uint8Array, offset: number) =>
  getAddressDecoder().decode(data.subarray(offset, offset + 32));
const view = (data: Uint8Array) => new DataView(data.buffer, data.byteOffset, data.byteLength);

export interface ParsedAccountData {
  program: string;
  parsed: unknown;
  space: bigint;
}

/** Whether the account is a token account (either token program), by owner and layout. */
export function isTokenAccount(account: EncodedAccount): boolean {
  const owner = account.programAddress as string;
  const data = account.data as Uint8Array;
  if (owner === TOKEN_PROGRAM) return data.length === TOKEN_ACCOUNT_SIZE;
  if (owner !== TOKEN_2022_PROGRAM) return false;
  return (
    data.length === TOKEN_ACCOUNT_SIZE ||
    (data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === ACCOUNT_TYPE_ACCOUNT)
  );
}

export function isMint(account: EncodedAccount): boolean {
  const owner = account.programAddress as string;
  const data = account.data as Uint8Array;
  if (owner === TOKEN_PROGRAM) return data.length === MINT_SIZE;
  if (owner !== TOKEN_2022_PROGRAM) return false;
  return (
    data.length === MINT_SIZE ||
    (data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === ACCOUNT_TYPE_MINT)
  );
}

export function tokenAccountMint(account: EncodedAccount): string {
  return addressAt(account.data as Uint8Array, 0);
}

export function tokenAccountOwner(account: EncodedAccount): string {
  return addressAt(account.data as Uint8Array, 32);
}

/** The raw amount a token account holds (u64 at offset 64). */
export function tokenAccountAmount(account: EncodedAccount): bigint {
  return view(account.data as Uint8Array).getBigUint64(64, true);
}

/** A mint's supply (u64 at offset 36). */
export function mintSupply(account: EncodedAccount): bigint {
  return view(account.data as Uint8Array).getBigUint64(36, true);
}

export interface UiTokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number;
  uiAmountString: string;
}

/** A token amount as agave shows it (token_amount_to_ui_amount_v3): raw, decimals, and both UI forms. */
export function tokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  const divisor = 10n ** BigInt(decimals);
  const whole = amount / divisor;
  const fraction = (amount % divisor).toString().padStart(decimals, '0').replace(/0+$/, '');
  const uiAmountString = fraction ? `${whole}.${fraction}` : `${whole}`;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

/**
 * jsonParsed for the accounts agave parses that exist here: the Clock, Rent and EpochSchedule
 * sysvars, nonce accounts, and token mints and accounts (base layout; extensions are not listed).
 * Null for anything else, which agave too answers in base64.
 */
export function parseAccountData(
  account: EncodedAccount,
  decimalsOfMint: (mint: string) => number | null,
): ParsedAccountData | null {
  const owner = account.programAddress as string;
  const data = account.data as Uint8Array;
  const space = BigInt(data.length);
  const address = account.address as string;
  if (owner === SYSVAR_OWNER) {
    const v = view(data);
    if (address === CLOCK && data.length >= 40) {
      return {
        program: 'sysvar',
        parsed: {
          type: 'clock',
          info: {
            slot: v.getBigUint64(0, true),
            epochStartTimestamp: v.getBigInt64(8, true),
            epoch: v.getBigUint64(16, true),
            leaderScheduleEpoch: v.getBigUint64(24, true),
            unixTimestamp: v.getBigInt64(32, true),
          },
        },
        space,
      };
    }
    if (address === RENT && data.length >= 17) {
      return {
        program: 'sysvar',
        parsed: {
          type: 'rent',
          info: {
            lamportsPerByteYear: v.getBigUint64(0, true),
            exemptionThreshold: v.getFloat64(8, true),
            burnPercent: data[16],
          },
        },
        space,
      };
    }
    if (address === EPOCH_SCHEDULE && data.length >= 33) {
      return {
        program: 'sysvar',
        parsed: {
          type: 'epochSchedule',
          info: {
            slotsPerEpoch: v.getBigUint64(0, true),
            leaderScheduleSlotOffset: v.getBigUint64(8, true),
            warmup: data[16] === 1,
            firstNormalEpoch: v.getBigUint64(17, true),
            firstNormalSlot: v.getBigUint64(25, true),
          },
        },
        space,
      };
    }
    return null;
  }
  if (owner === SYSTEM_PROGRAM && data.length === NONCE_SIZE) {
    const v = view(data);
    // Versions (u32), State (u32: 1 initialized), authority, durable nonce, lamports per signature.
    if (v.getUint32(4, true) !== 1) return { program: 'nonce', parsed: { type: 'uninitialized' }, space };
    return {
      program: 'nonce',
      parsed: {
        type: 'initialized',
        info: {
          authority: addressAt(data, 8),
          blockhash: addressAt(data, 40),
          feeCalculator: { lamportsPerSignature: v.getBigUint64(72, true).toString() },
        },
      },
      space,
    };
  }
  const program =
    owner === TOKEN_PROGRAM ? 'spl-token' : owner === TOKEN_2022_PROGRAM ? 'spl-token-2022' : null;
  if (!program) return null;
  if (isTokenAccount(account)) {
    const v = view(data);
    const mint = addressAt(data, 0);
    const decimals = decimalsOfMint(mint);
    if (decimals === null) return null;
    const isNative = v.getUint32(109, true) === 1;
    const delegated = v.getUint32(72, true) === 1;
    const info: Record<string, unknown> = {
      isNative,
      mint,
      owner: addressAt(data, 32),
      state: TOKEN_STATES[data[108]!] ?? 'uninitialized',
      tokenAmount: tokenAmount(v.getBigUint64(64, true), decimals),
    };
    if (delegated) {
      info.delegate = addressAt(data, 76);
      info.delegatedAmount = tokenAmount(v.getBigUint64(121, true), decimals);
    }
    if (isNative) info.rentExemptReserve = tokenAmount(v.getBigUint64(113, true), decimals);
    if (v.getUint32(129, true) === 1) info.closeAuthority = addressAt(data, 133);
    return { program, parsed: { type: 'account', info }, space };
  }
  if (isMint(account)) {
    const v = view(data);
    return {
      program,
      parsed: {
        type: 'mint',
        info: {
          mintAuthority: v.getUint32(0, true) === 1 ? addressAt(data, 4) : null,
          supply: v.getBigUint64(36, true).toString(),
          decimals: data[44],
          isInitialized: data[45] === 1,
          freezeAuthority: v.getUint32(46, true) === 1 ? addressAt(data, 50) : null,
        },
      },
      space,
    };
  }
  return null;
}

/** A mint's decimals, read from its account (null when it is not a mint). */
export function mintDecimals(account: EncodedAccount | null): number | null {
  if (!account || !isMint(account)) return null;
  return (account.data as Uint8Array)[44] ?? null;
}
