/** ProgramRuntime on LiteSVM (the SBF runtime in-process), with the program deployed through the real loader. */
import { type Blockhash, lamports } from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import { describeRpcTransactionError, toRpcTransactionError } from '../../../embedded/transaction-errors';
import { deployProgram, liteSvmDeployTarget } from '../../deploy';
import { customErrorCode } from '../../errors';
import type { ProgramRuntime } from './runtime';

export interface LiteSvmRuntime extends ProgramRuntime {
  /** For what only LiteSVM can do (forged accounts in attack tests). */
  readonly svm: LiteSVM;
}

export function liteSvmRuntime(svm = new LiteSVM()): LiteSvmRuntime {
  return {
    name: 'LiteSVM',
    svm,
    async deploy({ bytes, program, payer }) {
      return (await deployProgram({ target: liteSvmDeployTarget(svm), payer, program, bytes })).programId;
    },
    async airdrop(address, amount) {
      svm.airdrop(address, lamports(amount));
    },
    async latestBlockhash() {
      svm.expireBlockhash();
      return { blockhash: svm.latestBlockhash() as Blockhash, lastValidBlockHeight: 0n };
    },
    async send(transaction) {
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
    async now() {
      return svm.getClock().unixTimestamp;
    },
    async setTime(unixTimestamp) {
      const clock = svm.getClock();
      clock.unixTimestamp = unixTimestamp;
      svm.setClock(clock);
    },
  };
}
