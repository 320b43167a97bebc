/** ProgramRuntime on LiteSVM (the SBF runtime in-process, what the embedded chain runs). */
import { generateKeyPairSigner, lamports } from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import { describeRpcTransactionError, toRpcTransactionError } from '../../../embedded/transaction-errors';
import { customErrorCode } from '../../errors';
import type { ProgramRuntime } from './runtime';

export interface LiteSvmRuntime extends ProgramRuntime {
  /** For what only LiteSVM can do (forged accounts in attack tests). */
  readonly svm: LiteSVM;
}

export async function liteSvmRuntime(svm = new LiteSVM()): Promise<LiteSvmRuntime> {
  const payer = await generateKeyPairSigner();
  svm.airdrop(payer.address, lamports(1_000_000_000_000n));
  return {
    name: 'litesvm',
    svm,
    payer,
    async latestBlockhash() {
      // A new blockhash for each transaction keeps identical transactions distinct.
      svm.expireBlockhash();
      return { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 0n };
    },
    async sendTransaction(transaction) {
      const result = svm.sendTransaction(transaction);
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
    },
    async getAccount(address) {
      const account = svm.getAccount(address);
      if (!account.exists) return null;
      return {
        lamports: account.lamports,
        owner: account.programAddress,
        data: new Uint8Array(account.data),
        executable: account.executable,
      };
    },
    async getBalance(address) {
      return svm.getBalance(address) ?? 0n;
    },
    async minimumBalanceForRentExemption(size) {
      return svm.minimumBalanceForRentExemption(BigInt(size));
    },
    async fund(address, amount) {
      svm.airdrop(address, lamports(amount));
    },
    async now() {
      return svm.getClock().unixTimestamp;
    },
    async setTime(unixTimestamp) {
      const clock = svm.getClock();
      clock.unixTimestamp = unixTimestamp;
      svm.setClock(clock);
    },
    async nextSlot() {
      svm.warpToSlot(svm.getClock().slot + 1n);
    },
    async close() {},
  };
}
