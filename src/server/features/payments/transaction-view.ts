import type { TransactionView } from '#contract/payments';
import { describeTransactionError } from './transaction-errors';

type ParsedInstruction = {
  program?: string;
  programId: string;
  parsed?: { type?: string; info?: Record<string, unknown> } | string;
};

/** The subset of a jsonParsed getTransaction answer the explorer page shows. */
interface JsonParsedTransaction {
  slot: bigint;
  blockTime: bigint | null;
  meta: {
    err: unknown;
    fee: bigint;
    preBalances: readonly bigint[];
    postBalances: readonly bigint[];
    logMessages?: readonly string[] | null;
  } | null;
  transaction: {
    message: {
      accountKeys: readonly { pubkey: string; signer: boolean; writable: boolean }[];
      instructions: readonly ParsedInstruction[];
    };
  };
}

const json = (value: unknown) =>
  JSON.parse(JSON.stringify(value, (_key, inner) => (typeof inner === 'bigint' ? inner.toString() : inner)));

export function toTransactionView(signature: string, answer: unknown): TransactionView | null {
  const tx = answer as JsonParsedTransaction;
  if (!tx.meta) return null;
  const { meta } = tx;
  return {
    signature,
    slot: tx.slot.toString(),
    blockTime: tx.blockTime === null ? null : new Date(Number(tx.blockTime) * 1000).toISOString(),
    status: meta.err ? 'failed' : 'success',
    error: meta.err ? describeTransactionError(meta.err) : null,
    fee: meta.fee.toString(),
    accounts: tx.transaction.message.accountKeys.map((key, index) => ({
      address: String(key.pubkey),
      signer: key.signer,
      writable: key.writable,
      preBalance: (meta.preBalances[index] ?? 0n).toString(),
      postBalance: (meta.postBalances[index] ?? 0n).toString(),
    })),
    instructions: tx.transaction.message.instructions.map((ix) => ({
      program: ix.program ?? 'unknown',
      programId: String(ix.programId),
      type: typeof ix.parsed === 'object' ? (ix.parsed.type ?? null) : null,
      info: typeof ix.parsed === 'object' && ix.parsed.info ? json(ix.parsed.info) : null,
    })),
    logs: [...(meta.logMessages ?? [])],
  };
}
