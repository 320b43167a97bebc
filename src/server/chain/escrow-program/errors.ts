/** The escrow program's error codes (Custom(n) in a failed instruction) and what they mean. */
export const ESCROW_ERRORS = {
  1: ['UnknownInstruction', 'Unknown escrow instruction'],
  2: ['InvalidDataLength', 'Instruction data has the wrong length'],
  3: ['WrongAccountCount', 'Wrong number of accounts for this instruction'],
  4: ['MissingSignature', 'A required signature is missing'],
  5: ['NotWritable', 'An account that must be writable is not'],
  6: ['NotSystemProgram', 'The System program account is not the System program'],
  7: ['InvalidVault', 'Not a vault of this program'],
  8: ['InvalidReceipt', 'Not a receipt of this vault'],
  9: ['InvalidEntry', 'Not an entry of this vault'],
  10: ['WrongAddress', 'The account is not at the address its seeds and bump give'],
  11: ['AlreadyExists', 'The account already exists'],
  12: ['DeadlineInPast', 'The deadline has already passed'],
  13: ['InvalidRefundAfter', 'Refunds must open at or after the deadline'],
  14: ['InvalidKind', 'Unknown dare kind'],
  15: ['AmountTooSmall', 'The minimum is 0.01 SOL'],
  16: ['Overflow', 'The amount is too large'],
  17: ['VaultNotOpen', 'This dare is no longer open'],
  18: ['DeadlinePassed', "This dare's deadline has passed"],
  19: ['NotModerator', "Only the dare's moderator may do this"],
  20: ['RefundNotDue', 'Refunds are not open yet'],
  21: ['SettleWindowClosed', 'Too late to pay out: refunds are open'],
  22: ['WrongPayer', 'The payer does not match the receipt'],
  23: ['WrongRentPayer', 'The rent payer does not match the account'],
  24: ['NotSettled', 'The dare has not been settled'],
  25: ['StillOpen', 'The dare is still open'],
  26: ['DuplicateAccount', 'The same account was passed twice'],
  27: ['InsufficientVaultBalance', 'The vault holds less than it owes'],
  28: ['UnsupportedRent', "The cluster's rent parameters are not supported"],
  29: ['SyscallFailed', 'A runtime call failed'],
  30: ['NotAnEntrant', 'The winner did not enter this dare'],
} as const satisfies Record<number, readonly [string, string]>;

export type EscrowErrorCode = keyof typeof ESCROW_ERRORS;
export type EscrowErrorName = (typeof ESCROW_ERRORS)[EscrowErrorCode][0];

/** One program's error table read both ways: name -> code, and a code's name and message. */
export function errorLookups<Code extends number, Name extends string>(
  table: Record<Code, readonly [Name, string]>,
) {
  const byCode = table as Record<number, readonly [Name, string]>;
  return {
    codes: Object.fromEntries(Object.entries(byCode).map(([code, [name]]) => [name, Number(code)])) as Record<
      Name,
      Code
    >,
    name: (code: number): Name | null => byCode[code]?.[0] ?? null,
    /** A readable message for a Custom(code) of this program. */
    message: (code: number): string => byCode[code]?.[1] ?? `Escrow program error ${code}`,
  };
}

const lookups = errorLookups(ESCROW_ERRORS);
export const ESCROW_ERROR_CODE = lookups.codes;
export const escrowErrorName = lookups.name;
export const escrowErrorMessage = lookups.message;

/**
 * The Custom code of a failed instruction, from a JSON-RPC transaction error
 * (`{ InstructionError: [index, { Custom: n }] }`), or null for any other failure.
 */
export function customErrorCode(err: unknown): number | null {
  if (typeof err !== 'object' || err === null || !('InstructionError' in err)) return null;
  const detail = (err as { InstructionError: unknown }).InstructionError;
  if (!Array.isArray(detail)) return null;
  const inner = detail[1] as unknown;
  if (typeof inner !== 'object' || inner === null || !('Custom' in inner)) return null;
  const code = Number((inner as { Custom: unknown }).Custom);
  return Number.isInteger(code) ? code : null;
}
