import {
  AccountRole,
  type Address,
  appendTransactionMessageInstruction,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  type Instruction,
  pipe,
  type Rpc,
  type SolanaRpcApi,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';

/** A System transfer that also lists `reference` as a read-only account, tying it to one payment intent. */
export function transferWithReference(
  from: Address,
  to: Address,
  lamports: bigint,
  reference: Address,
): Instruction {
  const transfer = getTransferSolInstruction({
    source: createNoopSigner(from),
    destination: to,
    amount: lamports,
  });
  return {
    ...transfer,
    accounts: [...transfer.accounts, { address: reference, role: AccountRole.READONLY }],
  };
}

/** The unsigned transaction the user's wallet signs: fee payer and source are the user. */
export async function buildDepositTransaction(
  rpc: Rpc<SolanaRpcApi>,
  options: { from: Address; to: Address; lamports: bigint; reference: Address },
): Promise<{ base64: string; messageBytes: Uint8Array; lastValidBlockHeight: bigint }> {
  const { value: blockhash } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(options.from, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) =>
      appendTransactionMessageInstruction(
        transferWithReference(options.from, options.to, options.lamports, options.reference),
        m,
      ),
  );
  const compiled = compileTransaction(message);
  return {
    base64: getBase64EncodedWireTransaction(compiled),
    messageBytes: new Uint8Array(compiled.messageBytes),
    lastValidBlockHeight: blockhash.lastValidBlockHeight,
  };
}

/** Turns a simulation/execution error into a sentence a user understands. */
export function describeTransactionError(error: unknown): string {
  // kit wraps the node's error: the readable part is often in `cause`, the logs in `context`.
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    parts.push((current as Error).message ?? '');
    parts.push(
      JSON.stringify(current, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)) ?? '',
    );
    current = (current as { cause?: unknown }).cause;
  }
  const all = parts.join(' ');
  if (/InsufficientFundsForRent|insufficient funds for rent/i.test(all)) {
    return 'The transfer would leave an account below the rent-exempt minimum (0.00089088 SOL)';
  }
  if (
    /insufficient lamports|InsufficientFundsForFee|Custom":1\b|custom program error: 0x1\b|insufficient funds/i.test(
      all,
    )
  ) {
    return 'Insufficient funds: your wallet does not hold enough SOL for this amount plus the network fee';
  }
  if (/BlockhashNotFound|blockhash not found/i.test(all))
    return 'The transaction expired before it was sent. Please try again.';
  if (/AlreadyProcessed|already been processed/i.test(all)) return 'This transaction was already sent';
  if (/SignatureFailure|signature verification|missing signature/i.test(all)) {
    return 'The transaction is not correctly signed by your wallet';
  }
  return 'The network rejected the transaction';
}
