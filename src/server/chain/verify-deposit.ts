import type { Rpc, Signature, SolanaRpcApi } from '@solana/kit';

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';

/** What the server expects one payment to be (a payment intent). */
export interface ExpectedDeposit {
  from: string;
  escrow: string;
  lamports: bigint;
  reference: string;
  /** The slot the intent was issued at: a transaction from before it cannot pay it. */
  minSlot: bigint;
}

/** The parts of a `jsonParsed` getTransaction answer the checks read. */
export interface ParsedTransactionView {
  slot: bigint;
  err: unknown;
  accountKeys: { pubkey: string; signer: boolean; writable: boolean }[];
  preBalances: bigint[];
  postBalances: bigint[];
  /** Top-level and inner instructions, flattened. */
  instructions: { programId: string; parsed?: { type?: string; info?: Record<string, unknown> } }[];
}

export type DepositFailure =
  | 'not-found'
  | 'failed-on-chain'
  | 'too-old'
  | 'no-transfer'
  | 'several-transfers'
  | 'wrong-payer'
  | 'wrong-amount'
  | 'payer-not-signer'
  | 'missing-reference'
  | 'escrow-not-credited'
  | 'escrow-debited';

export const DEPOSIT_FAILURE_MESSAGES: Record<DepositFailure, string> = {
  'not-found': 'The transaction was not found or is not confirmed yet on this network',
  'failed-on-chain': 'The transaction failed on chain',
  'too-old': 'The transaction is older than this payment request',
  'no-transfer': 'The transaction does not transfer SOL to the escrow wallet',
  'several-transfers': 'The transaction must contain exactly one transfer to the escrow wallet',
  'wrong-payer': 'The transfer does not come from your wallet',
  'wrong-amount': 'The transferred amount does not match the requested amount',
  'payer-not-signer': 'Your wallet did not sign the transaction',
  'missing-reference': 'The transaction does not belong to this payment request',
  'escrow-not-credited': 'The escrow wallet did not receive the amount',
  'escrow-debited': 'The transaction moves SOL out of the escrow wallet',
};

// Instruction types of the System program that move lamports, and the field naming the payer.
const LAMPORT_SOURCES: Record<string, string> = {
  transfer: 'source',
  transferWithSeed: 'source',
  createAccount: 'source',
  createAccountWithSeed: 'source',
  withdrawFromNonce: 'nonceAccount',
};

/**
 * Checks a confirmed transaction against a payment intent (notes, section 2). Deliberately does
 * not compare bytes or instruction order: wallets may add their own instructions (priority fees).
 */
export function checkDeposit(tx: ParsedTransactionView, expected: ExpectedDeposit): DepositFailure | null {
  if (tx.err !== null && tx.err !== undefined) return 'failed-on-chain';
  if (tx.slot < expected.minSlot) return 'too-old';

  const systemInstructions = tx.instructions.filter(
    (ix) => ix.programId === SYSTEM_PROGRAM && ix.parsed?.type,
  );
  for (const ix of systemInstructions) {
    const sourceField = LAMPORT_SOURCES[ix.parsed!.type!];
    if (sourceField && ix.parsed!.info?.[sourceField] === expected.escrow) return 'escrow-debited';
  }
  const transfers = systemInstructions.filter(
    (ix) => ix.parsed!.type === 'transfer' && ix.parsed!.info?.destination === expected.escrow,
  );
  if (transfers.length === 0) return 'no-transfer';
  if (transfers.length > 1) return 'several-transfers';
  const info = transfers[0]!.parsed!.info!;
  if (info.source !== expected.from) return 'wrong-payer';
  if (BigInt(info.lamports as number | bigint | string) !== expected.lamports) return 'wrong-amount';

  const payer = tx.accountKeys.find((key) => key.pubkey === expected.from);
  if (!payer?.signer) return 'payer-not-signer';
  if (!tx.accountKeys.some((key) => key.pubkey === expected.reference)) return 'missing-reference';

  const escrowIndex = tx.accountKeys.findIndex((key) => key.pubkey === expected.escrow);
  const credited = (tx.postBalances[escrowIndex] ?? 0n) - (tx.preBalances[escrowIndex] ?? 0n);
  if (escrowIndex < 0 || credited < expected.lamports) return 'escrow-not-credited';
  return null;
}

type JsonParsedInstruction = {
  programId: string;
  program?: string;
  parsed?: { type?: string; info?: Record<string, unknown> } | string;
};

/** Fetches a transaction at `confirmed` (or stronger) and flattens it for `checkDeposit`. */
export async function fetchParsedTransaction(
  rpc: Rpc<SolanaRpcApi>,
  signature: Signature,
  commitment: 'confirmed' | 'finalized' = 'confirmed',
): Promise<ParsedTransactionView | null> {
  const { value: statuses } = await rpc
    .getSignatureStatuses([signature], { searchTransactionHistory: true })
    .send();
  const status = statuses[0];
  const reached =
    status?.confirmationStatus === 'finalized' ||
    (commitment === 'confirmed' && status?.confirmationStatus === 'confirmed');
  if (!status || !reached) return null;
  const tx = await rpc
    .getTransaction(signature, { encoding: 'jsonParsed', commitment, maxSupportedTransactionVersion: 0 })
    .send();
  if (!tx?.meta) return null;
  const message = tx.transaction.message as unknown as {
    accountKeys: { pubkey: string; signer: boolean; writable: boolean }[];
    instructions: JsonParsedInstruction[];
  };
  const inner = (tx.meta.innerInstructions ?? []) as unknown as { instructions: JsonParsedInstruction[] }[];
  const flatten = (ix: JsonParsedInstruction) => ({
    programId: String(ix.programId),
    parsed: typeof ix.parsed === 'object' ? ix.parsed : undefined,
  });
  return {
    slot: BigInt(tx.slot),
    err: tx.meta.err,
    accountKeys: message.accountKeys.map((key) => ({
      pubkey: String(key.pubkey),
      signer: key.signer,
      writable: key.writable,
    })),
    preBalances: tx.meta.preBalances.map(BigInt),
    postBalances: tx.meta.postBalances.map(BigInt),
    instructions: [
      ...message.instructions.map(flatten),
      ...inner.flatMap((group) => group.instructions.map(flatten)),
    ],
  };
}
