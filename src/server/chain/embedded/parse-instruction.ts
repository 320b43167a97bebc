import { getBase58Decoder } from '@solana/kit';
import {
  getCreateAccountInstructionDataDecoder,
  getTransferSolInstructionDataDecoder,
  getTransferSolWithSeedInstructionDataDecoder,
  identifySystemInstruction,
  SystemInstruction,
} from '@solana-program/system';

export const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111';

export interface CompiledIx {
  programAddressIndex: number;
  accountIndices?: readonly number[];
  data?: Uint8Array | ReadonlyUint8Array;
}
type ReadonlyUint8Array = Omit<Uint8Array, 'set' | 'fill' | 'copyWithin' | 'reverse' | 'sort'>;

/**
 * The `jsonParsed` view real RPC nodes give of an instruction: System transfers and account
 * creations parsed (what payment verification reads), everything else as raw accounts and data.
 */
export function parseInstruction(ix: CompiledIx, accountKeys: readonly string[], stackHeight: number | null) {
  const programId = accountKeys[ix.programAddressIndex] ?? '';
  const accounts = (ix.accountIndices ?? []).map((index) => accountKeys[index] ?? '');
  const data = new Uint8Array((ix.data ?? new Uint8Array()) as Uint8Array);
  const raw = { programId, accounts, data: getBase58Decoder().decode(data), stackHeight };
  if (programId !== SYSTEM_PROGRAM_ID || data.length < 4) return raw;
  try {
    switch (identifySystemInstruction(data)) {
      case SystemInstruction.TransferSol: {
        const { amount } = getTransferSolInstructionDataDecoder().decode(data);
        return system(
          'transfer',
          { source: accounts[0], destination: accounts[1], lamports: amount },
          stackHeight,
        );
      }
      case SystemInstruction.TransferSolWithSeed: {
        const { amount } = getTransferSolWithSeedInstructionDataDecoder().decode(data);
        return system(
          'transferWithSeed',
          { source: accounts[0], destination: accounts[2], lamports: amount },
          stackHeight,
        );
      }
      case SystemInstruction.CreateAccount: {
        const { lamports, space, programAddress } = getCreateAccountInstructionDataDecoder().decode(data);
        return system(
          'createAccount',
          { source: accounts[0], newAccount: accounts[1], lamports, space, owner: programAddress },
          stackHeight,
        );
      }
      default:
        return raw;
    }
  } catch {
    return raw;
  }
}

function system(type: string, info: Record<string, unknown>, stackHeight: number | null) {
  return { program: 'system', programId: SYSTEM_PROGRAM_ID, parsed: { type, info }, stackHeight };
}
