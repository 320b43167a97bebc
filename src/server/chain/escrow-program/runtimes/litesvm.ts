import { type Address, generateKeyPairSigner, lamports, type Transaction } from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm';
import {
  describeRpcTransactionError,
  toRpcTransactionError,
} from '#server/chain/embedded/transaction-errors';
import { customErrorCode } from '#server/chain/escrow-program/errors';
import type { ProgramRuntime, RuntimeResult } from './runtime';

/** What the payer starts with: enough for deploys and every fee of a test. */
const PAYER_LAMPORTS = 1_000_000_000_000n;

/** A LiteSVM result as a runtime result. */
function liteSvmResult(result: TransactionMetadata | FailedTransactionMetadata): RuntimeResult {
  if (result instanceof FailedTransactionMetadata) {
    const err = toRpcTransactionError(result.err());
    return {
      ok: false,
      code: customErrorCode(err),
      error: describeRpcTransactionError(err),
      logs: result.meta().logs(),
    };
  }
  return { ok: true, computeUnits: result.computeUnitsConsumed(), logs: result.logs() };
}

export interface LiteSvmRuntime extends ProgramRuntime {
  /** For what only LiteSVM can do (forged accounts in attack tests, rent without a round trip). */
  readonly svm: LiteSVM;
}

/** LiteSVM 1.5 in process: what the embedded chain runs. */
export async function startLiteSvmRuntime(svm = new LiteSVM()): Promise<LiteSvmRuntime> {
  const payer = await generateKeyPairSigner();
  svm.airdrop(payer.address, lamports(PAYER_LAMPORTS));
  return {
    name: 'litesvm',
    svm,
    payer,
    async latestBlockhash() {
      // A new blockhash per transaction, so two identical transactions are both processed.
      svm.expireBlockhash();
      return { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 0n };
    },
    async sendTransaction(transaction: Transaction) {
      return liteSvmResult(svm.sendTransaction(transaction));
    },
    async getAccount(address: Address) {
      const account = svm.getAccount(address);
      if (!account.exists) return null;
      return {
        lamports: account.lamports,
        owner: account.programAddress,
        executable: account.executable,
        data: new Uint8Array(account.data),
      };
    },
    async getBalance(address: Address) {
      return svm.getBalance(address) ?? 0n;
    },
    async minimumBalanceForRentExemption(size: number) {
      return svm.minimumBalanceForRentExemption(BigInt(size));
    },
    async fund(address: Address, amount: bigint) {
      const result = svm.airdrop(address, lamports(amount));
      if (result instanceof FailedTransactionMetadata)
        throw new Error(`litesvm: airdrop failed: ${result.err().toString()}`);
    },
    async now() {
      return svm.getClock().unixTimestamp;
    },
    async setTime(unixTimestamp: bigint) {
      const clock = svm.getClock();
      clock.unixTimestamp = unixTimestamp;
      svm.setClock(clock);
    },
    async nextSlot() {
      svm.warpToSlot(svm.getClock().slot + 1n);
      svm.expireBlockhash();
    },
    async close() {},
  };
}
