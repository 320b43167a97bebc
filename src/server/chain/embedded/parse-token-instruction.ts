import type { Option } from '@solana/kit';
import {
  getAmountToUiAmountInstructionDataDecoder,
  getApproveCheckedInstructionDataDecoder,
  getApproveInstructionDataDecoder,
  getBurnCheckedInstructionDataDecoder,
  getBurnInstructionDataDecoder,
  getInitializeAccount2InstructionDataDecoder,
  getInitializeAccount3InstructionDataDecoder,
  getInitializeMint2InstructionDataDecoder,
  getInitializeMintInstructionDataDecoder,
  getInitializeMultisig2InstructionDataDecoder,
  getInitializeMultisigInstructionDataDecoder,
  getMintToCheckedInstructionDataDecoder,
  getMintToInstructionDataDecoder,
  getSetAuthorityInstructionDataDecoder,
  getTransferCheckedInstructionDataDecoder,
  getTransferInstructionDataDecoder,
  TokenInstruction,
} from '@solana-program/token';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM, tokenAmount } from './account-parsers';

export const TOKEN_PROGRAMS = new Set<string>([TOKEN_PROGRAM, TOKEN_2022_PROGRAM]);
export const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';

type Info = Record<string, unknown>;
export interface ParsedInstruction {
  type: string;
  info: Info;
}

const AUTHORITY_TYPES = ['mintTokens', 'freezeAccount', 'accountOwner', 'closeAccount'];
/** Token-2022's ExtensionType (u16) by number, named as agave's UiExtensionType. */
const EXTENSION_TYPES = [
  'uninitialized',
  'transferFeeConfig',
  'transferFeeAmount',
  'mintCloseAuthority',
  'confidentialTransferMint',
  'confidentialTransferAccount',
  'defaultAccountState',
  'immutableOwner',
  'memoTransfer',
  'nonTransferable',
  'interestBearingConfig',
  'cpiGuard',
  'permanentDelegate',
  'nonTransferableAccount',
  'transferHook',
  'transferHookAccount',
  'confidentialTransferFeeConfig',
  'confidentialTransferFeeAmount',
  'metadataPointer',
  'tokenMetadata',
  'groupPointer',
  'tokenGroup',
  'groupMemberPointer',
  'tokenGroupMember',
  'confidentialMintBurn',
  'scaledUiAmount',
  'pausable',
  'pausableAccount',
];

/** GetAccountDataSize's extension types (u16 each, as the associated token program sends them). */
function extensionTypes(data: Uint8Array): string[] | null {
  if ((data.length - 1) % 2 !== 0) return null;
  const names: string[] = [];
  for (let at = 1; at < data.length; at += 2) {
    const name = EXTENSION_TYPES[data[at]! | (data[at + 1]! << 8)];
    if (name === undefined) return null;
    names.push(name);
  }
  return names;
}

function someOrNull(option: Option<string>): string | null {
  return option.__option === 'Some' ? option.value : null;
}

/**
 * The accounts from `first` on: one authority signs (`single`), or a multisig account followed by
 * its signers (`multisig` plus `signers`), as agave's parse_signers names them.
 */
function withSigners(info: Info, accounts: string[], first: number, single: string, multisig: string): Info {
  if (accounts.length > first + 1) {
    info[multisig] = accounts[first];
    info.signers = accounts.slice(first + 1);
  } else if (accounts[first] !== undefined) {
    info[single] = accounts[first];
  }
  return info;
}

/**
 * A Token or Token-2022 instruction as agave's jsonParsed shows it (`program: "spl-token"` for
 * both): the instructions the two programs share (discriminators 0–24), with agave's type names,
 * field names and minimum account counts. Token-2022's extension instructions and anything
 * malformed give null, and the caller shows the instruction raw, as agave does for what it cannot parse.
 */
export function parseTokenInstruction(data: Uint8Array, accounts: string[]): ParsedInstruction | null {
  try {
    return parseToken(data, accounts);
  } catch {
    return null; // data too short for its instruction
  }
}

function parseToken(data: Uint8Array, a: string[]): ParsedInstruction | null {
  const need = (count: number) => a.length >= count;
  switch (data[0]) {
    case TokenInstruction.InitializeMint:
    case TokenInstruction.InitializeMint2: {
      const legacy = data[0] === TokenInstruction.InitializeMint;
      if (!need(legacy ? 2 : 1)) return null;
      const ix = (
        legacy ? getInitializeMintInstructionDataDecoder() : getInitializeMint2InstructionDataDecoder()
      ).decode(data);
      const info: Info = { mint: a[0], decimals: ix.decimals, mintAuthority: ix.mintAuthority };
      if (legacy) info.rentSysvar = a[1];
      const freeze = someOrNull(ix.freezeAuthority);
      if (freeze !== null) info.freezeAuthority = freeze;
      return { type: legacy ? 'initializeMint' : 'initializeMint2', info };
    }
    case TokenInstruction.InitializeAccount:
      if (!need(4)) return null;
      return {
        type: 'initializeAccount',
        info: { account: a[0], mint: a[1], owner: a[2], rentSysvar: a[3] },
      };
    case TokenInstruction.InitializeAccount2: {
      if (!need(3)) return null;
      const { owner } = getInitializeAccount2InstructionDataDecoder().decode(data);
      return { type: 'initializeAccount2', info: { account: a[0], mint: a[1], owner, rentSysvar: a[2] } };
    }
    case TokenInstruction.InitializeAccount3: {
      if (!need(2)) return null;
      const { owner } = getInitializeAccount3InstructionDataDecoder().decode(data);
      return { type: 'initializeAccount3', info: { account: a[0], mint: a[1], owner } };
    }
    case TokenInstruction.InitializeMultisig: {
      if (!need(3)) return null;
      const { m } = getInitializeMultisigInstructionDataDecoder().decode(data);
      return {
        type: 'initializeMultisig',
        info: { multisig: a[0], rentSysvar: a[1], signers: a.slice(2), m },
      };
    }
    case TokenInstruction.InitializeMultisig2: {
      if (!need(2)) return null;
      const { m } = getInitializeMultisig2InstructionDataDecoder().decode(data);
      return { type: 'initializeMultisig2', info: { multisig: a[0], signers: a.slice(1), m } };
    }
    case TokenInstruction.Transfer: {
      if (!need(3)) return null;
      const { amount } = getTransferInstructionDataDecoder().decode(data);
      const info = { source: a[0], destination: a[1], amount: amount.toString() };
      return { type: 'transfer', info: withSigners(info, a, 2, 'authority', 'multisigAuthority') };
    }
    case TokenInstruction.Approve: {
      if (!need(3)) return null;
      const { amount } = getApproveInstructionDataDecoder().decode(data);
      const info = { source: a[0], delegate: a[1], amount: amount.toString() };
      return { type: 'approve', info: withSigners(info, a, 2, 'owner', 'multisigOwner') };
    }
    case TokenInstruction.Revoke:
      if (!need(2)) return null;
      return { type: 'revoke', info: withSigners({ source: a[0] }, a, 1, 'owner', 'multisigOwner') };
    case TokenInstruction.SetAuthority: {
      if (!need(2)) return null;
      const ix = getSetAuthorityInstructionDataDecoder().decode(data);
      const authorityType = AUTHORITY_TYPES[ix.authorityType];
      // Token-2022's other authority types belong to its extensions: left raw.
      if (authorityType === undefined) return null;
      const owned = authorityType === 'accountOwner' || authorityType === 'closeAccount' ? 'account' : 'mint';
      const info = { [owned]: a[0], authorityType, newAuthority: someOrNull(ix.newAuthority) };
      return { type: 'setAuthority', info: withSigners(info, a, 1, 'authority', 'multisigAuthority') };
    }
    case TokenInstruction.MintTo: {
      if (!need(3)) return null;
      const { amount } = getMintToInstructionDataDecoder().decode(data);
      const info = { mint: a[0], account: a[1], amount: amount.toString() };
      return { type: 'mintTo', info: withSigners(info, a, 2, 'mintAuthority', 'multisigMintAuthority') };
    }
    case TokenInstruction.Burn: {
      if (!need(3)) return null;
      const { amount } = getBurnInstructionDataDecoder().decode(data);
      const info = { account: a[0], mint: a[1], amount: amount.toString() };
      return { type: 'burn', info: withSigners(info, a, 2, 'authority', 'multisigAuthority') };
    }
    case TokenInstruction.CloseAccount:
      if (!need(3)) return null;
      return {
        type: 'closeAccount',
        info: withSigners({ account: a[0], destination: a[1] }, a, 2, 'owner', 'multisigOwner'),
      };
    case TokenInstruction.FreezeAccount:
    case TokenInstruction.ThawAccount:
      if (!need(3)) return null;
      return {
        type: data[0] === TokenInstruction.FreezeAccount ? 'freezeAccount' : 'thawAccount',
        info: withSigners({ account: a[0], mint: a[1] }, a, 2, 'freezeAuthority', 'multisigFreezeAuthority'),
      };
    case TokenInstruction.TransferChecked: {
      if (!need(4)) return null;
      const { amount, decimals } = getTransferCheckedInstructionDataDecoder().decode(data);
      const info = {
        source: a[0],
        mint: a[1],
        destination: a[2],
        tokenAmount: tokenAmount(amount, decimals),
      };
      return { type: 'transferChecked', info: withSigners(info, a, 3, 'authority', 'multisigAuthority') };
    }
    case TokenInstruction.ApproveChecked: {
      if (!need(4)) return null;
      const { amount, decimals } = getApproveCheckedInstructionDataDecoder().decode(data);
      const info = { source: a[0], mint: a[1], delegate: a[2], tokenAmount: tokenAmount(amount, decimals) };
      return { type: 'approveChecked', info: withSigners(info, a, 3, 'owner', 'multisigOwner') };
    }
    case TokenInstruction.MintToChecked: {
      if (!need(3)) return null;
      const { amount, decimals } = getMintToCheckedInstructionDataDecoder().decode(data);
      const info = { mint: a[0], account: a[1], tokenAmount: tokenAmount(amount, decimals) };
      return {
        type: 'mintToChecked',
        info: withSigners(info, a, 2, 'mintAuthority', 'multisigMintAuthority'),
      };
    }
    case TokenInstruction.BurnChecked: {
      if (!need(3)) return null;
      const { amount, decimals } = getBurnCheckedInstructionDataDecoder().decode(data);
      const info = { account: a[0], mint: a[1], tokenAmount: tokenAmount(amount, decimals) };
      return { type: 'burnChecked', info: withSigners(info, a, 2, 'authority', 'multisigAuthority') };
    }
    case TokenInstruction.SyncNative:
      if (!need(1)) return null;
      return { type: 'syncNative', info: { account: a[0] } };
    case TokenInstruction.GetAccountDataSize: {
      const types = extensionTypes(data);
      if (!need(1) || types === null) return null;
      const info: Info = { mint: a[0] };
      if (types.length > 0) info.extensionTypes = types;
      return { type: 'getAccountDataSize', info };
    }
    case TokenInstruction.InitializeImmutableOwner:
      if (!need(1)) return null;
      return { type: 'initializeImmutableOwner', info: { account: a[0] } };
    case TokenInstruction.AmountToUiAmount: {
      if (!need(1)) return null;
      const { amount } = getAmountToUiAmountInstructionDataDecoder().decode(data);
      return { type: 'amountToUiAmount', info: { mint: a[0], amount: amount.toString() } };
    }
    case TokenInstruction.UiAmountToAmount: {
      if (!need(1)) return null;
      const uiAmount = new TextDecoder('utf-8', { fatal: true }).decode(data.subarray(1));
      return { type: 'uiAmountToAmount', info: { mint: a[0], uiAmount } };
    }
    default:
      return null;
  }
}

/**
 * An Associated Token Account instruction as agave's jsonParsed shows it
 * (`program: "spl-associated-token-account"`): create (empty data or 0), createIdempotent (1),
 * recoverNested (2).
 */
export function parseAssociatedTokenInstruction(data: Uint8Array, a: string[]): ParsedInstruction | null {
  const kind = data.length === 0 ? 0 : data.length === 1 ? data[0] : -1;
  if (kind === 0 || kind === 1) {
    if (a.length < 6) return null;
    return {
      type: kind === 0 ? 'create' : 'createIdempotent',
      info: {
        source: a[0],
        account: a[1],
        wallet: a[2],
        mint: a[3],
        systemProgram: a[4],
        tokenProgram: a[5],
      },
    };
  }
  if (kind === 2) {
    if (a.length < 7) return null;
    return {
      type: 'recoverNested',
      info: {
        nestedSource: a[0],
        nestedMint: a[1],
        destination: a[2],
        nestedOwner: a[3],
        ownerMint: a[4],
        wallet: a[5],
        tokenProgram: a[6],
      },
    };
  }
  return null;
}
