import { AccountRole, type Address, getBase58Decoder } from '@solana/kit';
import { parseSystemInstruction, SYSTEM_PROGRAM_ADDRESS, SystemInstruction } from '@solana-program/system';
import {
  ASSOCIATED_TOKEN_PROGRAM,
  parseAssociatedTokenInstruction,
  parseTokenInstruction,
  TOKEN_PROGRAMS,
} from './parse-token-instruction';

const MEMO_PROGRAMS = new Set([
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
]);

export interface RawInstruction {
  programIdIndex: number;
  accounts: readonly number[];
  data: Uint8Array;
}

/**
 * An instruction as `jsonParsed` shows it: System, Token (both programs), Associated Token
 * Account and Memo instructions parsed with agave's names (`parsed.type`, `parsed.info`), any
 * other as `{programId, accounts, data}` in base58.
 */
export function toJsonParsedInstruction(
  instruction: RawInstruction,
  accountKeys: readonly string[],
  stackHeight: number | null,
) {
  const programId = accountKeys[instruction.programIdIndex] ?? '';
  const accounts = instruction.accounts.map((index) => accountKeys[index] ?? '');
  if (programId === SYSTEM_PROGRAM_ADDRESS) {
    const parsed = parseSystem(instruction.data, accounts);
    if (parsed) return { program: 'system', programId, parsed, stackHeight };
  }
  if (TOKEN_PROGRAMS.has(programId)) {
    const parsed = parseTokenInstruction(instruction.data, accounts);
    if (parsed) return { program: 'spl-token', programId, parsed, stackHeight };
  }
  if (programId === ASSOCIATED_TOKEN_PROGRAM) {
    const parsed = parseAssociatedTokenInstruction(instruction.data, accounts);
    if (parsed) return { program: 'spl-associated-token-account', programId, parsed, stackHeight };
  }
  if (MEMO_PROGRAMS.has(programId)) {
    const text = new TextDecoder('utf-8', { fatal: true });
    try {
      return { program: 'spl-memo', programId, parsed: text.decode(instruction.data), stackHeight };
    } catch {
      // Not UTF-8: real nodes fall back to the raw form too.
    }
  }
  return { programId, accounts, data: getBase58Decoder().decode(instruction.data), stackHeight };
}

type Info = Record<string, unknown>;

function parseSystem(data: Uint8Array, accounts: string[]): { type: string; info: Info } | null {
  let ix: ReturnType<typeof parseSystemInstruction>;
  try {
    ix = parseSystemInstruction({
      programAddress: SYSTEM_PROGRAM_ADDRESS,
      // Roles do not matter to the decoder, only positions.
      accounts: accounts.map((address) => ({ address: address as Address, role: AccountRole.READONLY })),
      data,
    });
  } catch {
    return null;
  }
  const a = ix.accounts as Record<string, { address: string } | undefined>;
  const at = (name: string) => a[name]?.address;
  switch (ix.instructionType) {
    case SystemInstruction.CreateAccount:
      return {
        type: 'createAccount',
        info: {
          source: at('payer'),
          newAccount: at('newAccount'),
          lamports: ix.data.lamports,
          space: ix.data.space,
          owner: ix.data.programAddress,
        },
      };
    case SystemInstruction.Assign:
      return { type: 'assign', info: { account: at('account'), owner: ix.data.programAddress } };
    case SystemInstruction.TransferSol:
      return {
        type: 'transfer',
        info: { source: at('source'), destination: at('destination'), lamports: ix.data.amount },
      };
    case SystemInstruction.CreateAccountWithSeed:
      return {
        type: 'createAccountWithSeed',
        info: {
          source: at('payer'),
          newAccount: at('newAccount'),
          base: ix.data.base,
          seed: ix.data.seed,
          lamports: ix.data.amount,
          space: ix.data.space,
          owner: ix.data.programAddress,
        },
      };
    case SystemInstruction.AdvanceNonceAccount:
      return {
        type: 'advanceNonce',
        info: {
          nonceAccount: at('nonceAccount'),
          recentBlockhashesSysvar: at('recentBlockhashesSysvar'),
          nonceAuthority: at('nonceAuthority'),
        },
      };
    case SystemInstruction.WithdrawNonceAccount:
      return {
        type: 'withdrawFromNonce',
        info: {
          nonceAccount: at('nonceAccount'),
          destination: at('recipientAccount'),
          recentBlockhashesSysvar: at('recentBlockhashesSysvar'),
          rentSysvar: at('rentSysvar'),
          nonceAuthority: at('nonceAuthority'),
          lamports: ix.data.withdrawAmount,
        },
      };
    case SystemInstruction.InitializeNonceAccount:
      return {
        type: 'initializeNonce',
        info: {
          nonceAccount: at('nonceAccount'),
          recentBlockhashesSysvar: at('recentBlockhashesSysvar'),
          rentSysvar: at('rentSysvar'),
          nonceAuthority: ix.data.nonceAuthority,
        },
      };
    case SystemInstruction.AuthorizeNonceAccount:
      return {
        type: 'authorizeNonce',
        info: {
          nonceAccount: at('nonceAccount'),
          nonceAuthority: at('nonceAuthority'),
          newAuthorized: ix.data.newNonceAuthority,
        },
      };
    case SystemInstruction.Allocate:
      return { type: 'allocate', info: { account: at('newAccount'), space: ix.data.space } };
    case SystemInstruction.AllocateWithSeed:
      return {
        type: 'allocateWithSeed',
        info: {
          account: at('newAccount'),
          base: ix.data.base,
          seed: ix.data.seed,
          space: ix.data.space,
          owner: ix.data.programAddress,
        },
      };
    case SystemInstruction.AssignWithSeed:
      return {
        type: 'assignWithSeed',
        info: {
          account: at('account'),
          base: ix.data.base,
          seed: ix.data.seed,
          owner: ix.data.programAddress,
        },
      };
    case SystemInstruction.TransferSolWithSeed:
      return {
        type: 'transferWithSeed',
        info: {
          source: at('source'),
          sourceBase: at('baseAccount'),
          destination: at('destination'),
          lamports: ix.data.amount,
          sourceSeed: ix.data.fromSeed,
          sourceOwner: ix.data.fromOwner,
        },
      };
    case SystemInstruction.UpgradeNonceAccount:
      return { type: 'upgradeNonce', info: { nonceAccount: at('nonceAccount') } };
    default:
      // Newer instructions agave's parser does not know yet stay raw there as well.
      return null;
  }
}
