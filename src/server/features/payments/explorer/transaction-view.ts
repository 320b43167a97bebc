import { getBase58Encoder } from '@solana/kit';
import { lamportsToSol } from '#contract/money';
import type { TransactionView } from '#contract/payments';
import type { InstructionDecoder } from '#server/chain/escrow-program/decode';
import type { ExplorerNames } from '#server/features/payments/repo/explorer-names';
import { describeTransactionError } from './transaction-errors';

type ParsedInstruction = {
  program?: string;
  programId: string;
  parsed?: { type?: string; info?: Record<string, unknown> } | string;
  /** Programs the node cannot parse: their accounts and base58 data. */
  accounts?: readonly string[];
  data?: string;
};

/** The program name escrow instructions are shown under, and the summary looks for. */
export const ESCROW_PROGRAM_NAME = 'DarePool escrow';

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

function decodeRaw(ix: ParsedInstruction, decode: InstructionDecoder | undefined) {
  if (!decode || ix.parsed !== undefined || ix.data === undefined || !ix.accounts) return null;
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(getBase58Encoder().encode(ix.data));
  } catch {
    return null;
  }
  return decode(String(ix.programId), ix.accounts.map(String), bytes);
}

function viewOfInstruction(ix: ParsedInstruction, decode: InstructionDecoder | undefined) {
  const decoded = decodeRaw(ix, decode);
  if (decoded) {
    const { amount, kind } = decoded.data;
    return {
      program: decoded.program,
      programId: String(ix.programId),
      type: decoded.name,
      info: {
        ...decoded.accounts,
        ...(amount === undefined ? {} : { amount: `${lamportsToSol(amount)} SOL` }),
        ...(kind === undefined ? {} : { kind }),
      },
    };
  }
  return {
    program: ix.program ?? 'unknown',
    programId: String(ix.programId),
    type: typeof ix.parsed === 'object' ? (ix.parsed.type ?? null) : null,
    info: typeof ix.parsed === 'object' && ix.parsed.info ? json(ix.parsed.info) : null,
  };
}

/**
 * `decode` names the instructions of the programs it knows (the escrow program's); the summary is
 * left empty here and written by describeTransaction once the addresses' names are known.
 */
export function toTransactionView(
  signature: string,
  answer: unknown,
  decode?: InstructionDecoder,
): TransactionView | null {
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
    instructions: tx.transaction.message.instructions.map((ix) => viewOfInstruction(ix, decode)),
    logs: [...(meta.logMessages ?? [])],
    summary: [],
  };
}

/** Every address a view names: what describeTransaction needs names for. */
export function addressesOf(view: TransactionView): string[] {
  return view.accounts.map((account) => account.address);
}

const shortAddress = (address: string) => `${address.slice(0, 4)}…${address.slice(-4)}`;

/**
 * The sentences that lead the explorer page, one per money movement of the escrow program:
 * 'walker1 was paid 0.35 SOL from dare "Juggle five balls"', 'alice put 0.2 SOL into dare "…"',
 * 'Refunded 0.05 SOL to bob from dare "…"'. Paid and refunded amounts are what the recipient's
 * balance gained (plus the fee when the recipient paid it), less the rent of records closed back to
 * them in the same transaction, so they are what the program paid them. `vaultRents` (by program
 * id) is the rent a vault of each escrow program keeps: a vault closed by this transaction returns
 * it to its rent payer, on program v2 the creator, who is often refunded in the same transaction.
 */
export function describeTransaction(
  view: TransactionView,
  names: ExplorerNames,
  vaultRents: ReadonlyMap<string, bigint> = new Map(),
): TransactionView['summary'] {
  const index = new Map(view.accounts.map((account, at) => [account.address, at]));
  const who = (address: unknown) =>
    typeof address === 'string' ? (names.users.get(address) ?? shortAddress(address)) : 'someone';
  const dareOf = (vault: unknown) => (typeof vault === 'string' ? names.dares.get(vault) : undefined);
  const dareText = (vault: unknown) => {
    const dare = dareOf(vault);
    return dare ? `dare "${dare.title}"` : 'a dare';
  };
  // Rent of records closed in this transaction goes back to whoever paid it, often the winner
  // (entrants pay their own entry): that is their own SOL coming back, not what they were paid.
  const rentBack = new Map<string, bigint>();
  for (const ix of view.instructions) {
    if (ix.program !== ESCROW_PROGRAM_NAME || !ix.info) continue;
    const [record, rentPayer] =
      ix.type === 'close entry'
        ? [ix.info.entry, ix.info.entryRentPayer]
        : ix.type === 'close receipt' || ix.type === 'refund'
          ? [ix.info.receipt, ix.info.receiptRentPayer]
          : [undefined, undefined];
    const at = typeof record === 'string' ? index.get(record) : undefined;
    if (at === undefined || typeof rentPayer !== 'string') continue;
    const rent = BigInt(view.accounts[at]!.preBalance);
    rentBack.set(rentPayer, (rentBack.get(rentPayer) ?? 0n) + rent);
  }
  const vaultsClosed = new Set<string>();
  for (const ix of view.instructions) {
    if (ix.program !== ESCROW_PROGRAM_NAME || !ix.info) continue;
    const { vault, vaultRentPayer } = ix.info;
    const rent = vaultRents.get(ix.programId);
    const at = typeof vault === 'string' ? index.get(vault) : undefined;
    if (at === undefined || typeof vaultRentPayer !== 'string' || rent === undefined) continue;
    const account = view.accounts[at]!;
    if (vaultsClosed.has(account.address) || BigInt(account.postBalance) !== 0n) continue;
    if (BigInt(account.preBalance) === 0n) continue;
    vaultsClosed.add(account.address);
    rentBack.set(vaultRentPayer, (rentBack.get(vaultRentPayer) ?? 0n) + rent);
  }
  const received = (address: unknown): string | null => {
    const at = typeof address === 'string' ? index.get(address) : undefined;
    if (at === undefined) return null;
    const account = view.accounts[at]!;
    let gained =
      BigInt(account.postBalance) - BigInt(account.preBalance) - (rentBack.get(account.address) ?? 0n);
    if (at === 0) gained += BigInt(view.fee);
    return gained > 0n ? lamportsToSol(gained) : null;
  };
  const lines: TransactionView['summary'] = [];
  let cancelled: TransactionView['summary'][number] | null = null;
  for (const ix of view.instructions) {
    if (ix.program !== ESCROW_PROGRAM_NAME || !ix.info) continue;
    const info = ix.info;
    const dareId = dareOf(info.vault)?.id ?? null;
    switch (ix.type) {
      case 'create vault':
      case 'deposit': {
        const amount = String(info.amount ?? '').replace(/ SOL$/, '');
        lines.push({ text: `${who(info.payer)} put ${amount} SOL into ${dareText(info.vault)}`, dareId });
        break;
      }
      case 'propose': {
        const named = Object.entries(info)
          .filter(([role]) => /^winner\d+$/.test(role))
          .map(([, address]) => who(address));
        if (named.length > 0)
          lines.push({
            text: `The judges named ${named.join(' and ')} the ${named.length === 1 ? 'winner' : 'winners'} of ${dareText(info.vault)}: paid after the guardian's window`,
            dareId,
          });
        break;
      }
      case 'veto':
        lines.push({
          text: `The guardian vetoed the winners named for ${dareText(info.vault)}: judging starts again`,
          dareId,
        });
        break;
      case 'settle':
      case 'execute':
        for (const [role, address] of Object.entries(info)) {
          if (!/^winner\d+$/.test(role)) continue;
          const amount = received(address);
          if (amount)
            lines.push({
              text: `${who(address)} was paid ${amount} SOL from ${dareText(info.vault)}`,
              dareId,
            });
        }
        break;
      case 'refund': {
        const amount = received(info.payer);
        if (amount)
          lines.push({
            text: `Refunded ${amount} SOL to ${who(info.payer)} from ${dareText(info.vault)}`,
            dareId,
          });
        break;
      }
      case 'enter':
        lines.push({ text: `${who(info.entrant)} entered ${dareText(info.vault)} with a proof`, dareId });
        break;
      case 'cancel': {
        const text = `${dareText(info.vault)} was cancelled: every payer can take their SOL back`;
        cancelled = { text: text[0]!.toUpperCase() + text.slice(1), dareId };
        break;
      }
    }
  }
  // A cancel sent with its refunds is said by the refunds themselves.
  if (cancelled && lines.length === 0) lines.push(cancelled);
  return lines;
}
