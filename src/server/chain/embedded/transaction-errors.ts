import type { FailedTransactionMetadata } from 'litesvm';
import type { TransactionErrorInstructionError } from 'litesvm/dist/internal.js';
import { liteSvmInternals } from '#server/chain/litesvm-native';

/**
 * LiteSVM reports errors as native enums and classes; real nodes as JSON such as
 * "BlockhashNotFound" or {"InstructionError":[0,{"Custom":1}]}, which kit turns into typed errors.
 * The numeric enums follow the agave order, which is also the order kit decodes by name.
 */
const TRANSACTION_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
];

const INSTRUCTION_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
];

/** A transaction error as JSON-RPC shows it. */
export type RpcTransactionError = string | Record<string, unknown>;

type LiteSvmError = ReturnType<FailedTransactionMetadata['err']>;
type LiteSvmInstructionError = ReturnType<TransactionErrorInstructionError['err']>;

function toRpcInstructionError(err: LiteSvmInstructionError): unknown {
  const { InstructionErrorBorshIo, InstructionErrorCustom } = liteSvmInternals();
  if (err instanceof InstructionErrorCustom) return { Custom: err.code };
  if (err instanceof InstructionErrorBorshIo) return { BorshIoError: err.msg };
  return INSTRUCTION_ERRORS[err as number] ?? 'GenericError';
}

export function toRpcTransactionError(err: LiteSvmError): RpcTransactionError {
  const {
    TransactionErrorDuplicateInstruction,
    TransactionErrorInstructionError,
    TransactionErrorInsufficientFundsForRent,
    TransactionErrorProgramExecutionTemporarilyRestricted,
  } = liteSvmInternals();
  if (err instanceof TransactionErrorInstructionError) {
    return { InstructionError: [err.index, toRpcInstructionError(err.err())] };
  }
  if (err instanceof TransactionErrorDuplicateInstruction) return { DuplicateInstruction: err.index };
  if (err instanceof TransactionErrorInsufficientFundsForRent) {
    return { InsufficientFundsForRent: { account_index: err.accountIndex } };
  }
  if (err instanceof TransactionErrorProgramExecutionTemporarilyRestricted) {
    return { ProgramExecutionTemporarilyRestricted: { account_index: err.accountIndex } };
  }
  return TRANSACTION_ERRORS[err as number] ?? `UnknownTransactionError${String(err)}`;
}

// The Display texts agave puts after "Transaction simulation failed: "; the rest show their name.
const TRANSACTION_ERROR_TEXT: Record<string, string> = {
  AccountInUse: 'Account in use',
  AccountLoadedTwice: 'Account loaded twice',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  ProgramAccountNotFound: 'Attempt to load a program that does not exist',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  InvalidAccountForFee: 'This account may not be used to pay transaction fees',
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  SignatureFailure: 'Transaction did not pass signature verification',
  SanitizeFailure: 'Transaction failed to sanitize accounts offsets correctly',
  UnsupportedVersion: 'Transaction version is unsupported',
  AddressLookupTableNotFound: 'Transaction loads an address table account that doesn\u2019t exist',
};

const INSTRUCTION_ERROR_TEXT: Record<string, string> = {
  GenericError: 'generic instruction error',
  InvalidArgument: 'invalid program argument',
  InvalidInstructionData: 'invalid instruction data',
  InvalidAccountData: 'invalid account data for instruction',
  AccountDataTooSmall: 'account data too small for instruction',
  InsufficientFunds: 'insufficient funds for instruction',
  IncorrectProgramId: 'incorrect program id for instruction',
  MissingRequiredSignature: 'missing required signature for instruction',
  AccountAlreadyInitialized: 'instruction requires an uninitialized account',
  UninitializedAccount: 'instruction requires an initialized account',
  ComputationalBudgetExceeded: 'Computational budget exceeded',
};

export function describeRpcTransactionError(err: RpcTransactionError): string {
  if (typeof err === 'string') return TRANSACTION_ERROR_TEXT[err] ?? err;
  if ('InstructionError' in err) {
    const [index, inner] = err.InstructionError as [number, unknown];
    let text: string;
    if (typeof inner === 'string') text = INSTRUCTION_ERROR_TEXT[inner] ?? inner;
    else if (inner && typeof inner === 'object' && 'Custom' in inner) {
      text = `custom program error: 0x${Number(inner.Custom).toString(16)}`;
    } else text = JSON.stringify(inner);
    return `Error processing Instruction ${index}: ${text}`;
  }
  if ('InsufficientFundsForRent' in err) {
    const { account_index } = err.InsufficientFundsForRent as { account_index: number };
    return `Transaction results in an account (${account_index}) with insufficient funds for rent`;
  }
  if ('DuplicateInstruction' in err) {
    return `Transaction contains a duplicate instruction (${String(err.DuplicateInstruction)}) that is not allowed`;
  }
  return JSON.stringify(err);
}
