import { type Cluster, networkLabel } from '#contract/network';
import type { CreateTransactionRequest, CreateTransactionResponse } from '#contract/payments';
import { balanceUnavailableMessage, checkAffordable } from './balance-check';
import type { CreateDareStepId, StepStatus } from './escrow-funding-steps';
import { PaymentError } from './payment-errors';
import type { PaymentSigner } from './payment-wallet';
import { signBase64Transaction } from './sign-transaction';

/**
 * What the program fixes when a stake creates the dare's vault (docs/decisions/021): the dare's
 * deadline (ISO; refunds open 7 days after it) and its kind (a major dare pays 70/30).
 */
export interface VaultTerms {
  deadline: string | null;
  kind: 'community' | 'major';
}

/** A stake that reached a new escrow but whose record was not written yet (the last step failed). */
export interface PaidStake extends VaultTerms {
  walletAddress: string;
  stakeAmount: string;
  escrowWalletAddress: string;
  signature: string;
}

/** The payment calls of the flow; hooks pass the real ones, tests pass fakes. */
export interface EscrowFundingDeps {
  connectWallet(walletAddress: string): Promise<PaymentSigner>;
  checkBalance(walletAddress: string): Promise<bigint>;
  createEscrowWallet(): Promise<{ publicKey: string }>;
  createTransaction(request: CreateTransactionRequest): Promise<CreateTransactionResponse>;
  sendTransaction(signedTransaction: string): Promise<string>;
}

export interface EscrowFundingEvents {
  onStep(step: CreateDareStepId, status: StepStatus): void;
  /** After step 6: the stake is on chain; keep it so a retry only repeats step 7. */
  onPaid(paid: PaidStake): void;
}

const PAID_STEPS: readonly CreateDareStepId[] = ['connect', 'balance', 'escrow', 'build', 'sign', 'send'];

/**
 * docs/product.md#create-dare-flow, for anything funded by a stake into a fresh escrow (a
 * community dare, a major dare's prize): connect, check the balance, reserve an escrow, build the
 * transfer, sign it in the wallet, send it, then `record` with the paid stake. Reports each step
 * as it starts, ends or fails. With `paid` (same wallet and amount) it goes straight to the record
 * step: the server answers a repeated signature with the same record, so this never pays twice.
 */
export async function runEscrowFunding<T>(
  input: {
    amount: string;
    walletAddress: string;
    cluster: Cluster;
    /** The rent the new vault and the creator's receipt lend (/api/config's newVaultRentSol). */
    vaultRentSol: string;
    /** The network fee now, priority fee included (/api/config's networkFeeSol); else the base fee. */
    networkFeeSol?: string;
    /** The vault the stake creates: its deadline and kind. */
    vault: VaultTerms;
    /** The dare the stake is for, checked by the server when it builds the transaction. */
    dare?: { title: string; description: string };
    paid?: PaidStake | null;
  },
  deps: EscrowFundingDeps,
  events: EscrowFundingEvents,
  record: (paid: PaidStake) => Promise<T>,
): Promise<{ result: T; signature: string }> {
  const { amount, walletAddress, cluster, vault } = input;
  let current: CreateDareStepId | null = null;
  async function step<R>(id: CreateDareStepId, work: () => Promise<R>): Promise<R> {
    current = id;
    events.onStep(id, 'running');
    const result = await work();
    events.onStep(id, 'done');
    return result;
  }

  try {
    // A vault fixes its deadline and kind: a stake paid under other terms cannot be reused.
    const same = input.paid;
    let paid =
      same?.walletAddress === walletAddress &&
      same.stakeAmount === amount &&
      same.deadline === vault.deadline &&
      same.kind === vault.kind
        ? same
        : null;
    if (paid) {
      for (const id of PAID_STEPS) events.onStep(id, 'done');
    } else {
      const signer = await step('connect', () => deps.connectWallet(walletAddress));
      await step('balance', async () => {
        const balance = await deps.checkBalance(walletAddress).catch(() => {
          throw new PaymentError(balanceUnavailableMessage(walletAddress));
        });
        const problem = checkAffordable({
          balance,
          amount,
          network: networkLabel(cluster),
          walletAddress,
          rentSol: input.vaultRentSol,
          feeSol: input.networkFeeSol,
        });
        if (problem) throw new PaymentError(problem);
      });
      const escrow = await step('escrow', () => deps.createEscrowWallet());
      const built = await step('build', () =>
        deps.createTransaction({
          fromWallet: walletAddress,
          toWallet: escrow.publicKey,
          amount,
          ...(vault.deadline === null ? {} : { deadline: vault.deadline }),
          kind: vault.kind,
          ...input.dare,
        }),
      );
      const signed = await step('sign', () => signBase64Transaction(signer, built.transaction));
      const signature = await step('send', () => deps.sendTransaction(signed));
      paid = {
        walletAddress,
        stakeAmount: amount,
        escrowWalletAddress: escrow.publicKey,
        signature,
        ...vault,
      };
      events.onPaid(paid);
    }
    const stake = paid;
    const result = await step('record', () => record(stake));
    return { result, signature: stake.signature };
  } catch (error) {
    if (current) events.onStep(current, 'failed');
    throw error;
  }
}
