/**
 * How a v2 vault's end is sent: `execute` in a transaction of its own, then every record close in
 * a transaction of its own. A record's rent goes back to whoever paid it, which for entries is the
 * entrant, a stranger: if that account cannot receive lamports (an executable account, on a
 * runtime that refuses to credit one), every transaction closing that record fails. Kept apart,
 * such a record holds up only its own close, never the payout, a cancel or another refund.
 */
import type { Address, Instruction } from '@solana/kit';
import {
  getCloseEntryV2Instruction,
  getCloseReceiptV2Instruction,
  getExecuteInstruction,
  getRefundV2Instruction,
} from './instructions';

export interface ReceiptRecord {
  payer: Address;
  rentPayer: Address;
  /** The receipt's address as found on chain (default: the canonical one). */
  address?: Address;
}

export interface EntryRecord {
  entrant: Address;
  rentPayer: Address;
  address?: Address;
}

/** One transaction's worth of instructions, and the record it closes (null for execute). */
export interface PlannedTransaction {
  instructions: Instruction[];
  closes: { kind: 'receipt' | 'entry'; owner: Address } | null;
}

interface Records {
  programId: Address;
  vault: Address;
  vaultRentPayer: Address;
  receipts: readonly ReceiptRecord[];
  entries: readonly EntryRecord[];
}

/**
 * The closes of an ended vault, one per transaction: after a payout close_receipt and close_entry;
 * after cancel or past refund_after (`refund: true`) every entry, then a refund per receipt (the
 * last closes the vault when no entry is left). Anyone may send them, in any order.
 */
export async function planRecordClosesV2(
  input: Records & { refund: boolean },
): Promise<PlannedTransaction[]> {
  const common = { programId: input.programId, vault: input.vault, vaultRentPayer: input.vaultRentPayer };
  const entries = await Promise.all(
    input.entries.map(async (e) => ({
      instructions: [
        await getCloseEntryV2Instruction({
          ...common,
          entrant: e.entrant,
          entryRentPayer: e.rentPayer,
          entry: e.address,
        }),
      ],
      closes: { kind: 'entry' as const, owner: e.entrant },
    })),
  );
  const receipts = await Promise.all(
    input.receipts.map(async (r) => {
      const record = { ...common, payer: r.payer, receiptRentPayer: r.rentPayer, receipt: r.address };
      return {
        instructions: [
          input.refund ? await getRefundV2Instruction(record) : await getCloseReceiptV2Instruction(record),
        ],
        closes: { kind: 'receipt' as const, owner: r.payer },
      };
    }),
  );
  return input.refund ? [...entries, ...receipts] : [...receipts, ...entries];
}

/** A payout: execute alone first, then each record's close on its own. */
export async function planPayoutV2(
  input: Records & { winners: readonly Address[] },
): Promise<PlannedTransaction[]> {
  return [
    {
      instructions: [
        getExecuteInstruction({ programId: input.programId, vault: input.vault, winners: input.winners }),
      ],
      closes: null,
    },
    ...(await planRecordClosesV2({ ...input, refund: false })),
  ];
}
