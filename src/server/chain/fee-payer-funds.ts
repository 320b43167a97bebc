/**
 * Whether the platform fee payer can pay what the server is about to make it pay (a new vault's
 * or receipt's rent, a payout's fees), and how low it is. When it cannot, the user is told so in
 * DarePool's words (FEE_PAYER_MESSAGES.low, 503), never that their own wallet is short: the
 * transactions the platform co-signs are paid from two wallets, and only one is the user's.
 */
import type {
  Address,
  GetBalanceApi,
  GetMinimumBalanceForRentExemptionApi,
  GetRecentPrioritizationFeesApi,
  Rpc,
} from '@solana/kit';
import { FEE_PAYER_MESSAGES } from '#contract/fee-payer';
import { AppError } from '#server/errors';
import { walletTransactionFee } from './compute-budget';
import type { EscrowKeys } from './escrow-keys';
import { INSTRUCTION } from './escrow-program/instructions';

export interface FeePayerBalance {
  address: Address;
  lamports: bigint;
}

export class FeePayerLowError extends AppError {
  constructor() {
    super('SERVICE_UNAVAILABLE', FEE_PAYER_MESSAGES.low);
  }
}

export function createFeePayerFunds({
  rpc,
  escrowKeys,
}: {
  rpc: Rpc<GetBalanceApi & GetMinimumBalanceForRentExemptionApi & GetRecentPrioritizationFeesApi>;
  escrowKeys: Pick<EscrowKeys, 'feePayer'>;
}) {
  let address: Promise<Address> | undefined;
  let walletMinimum: Promise<bigint> | undefined;
  const rents = new Map<number, Promise<bigint>>();
  const feePayerAddress = () => {
    address ??= escrowKeys.feePayer().then((signer) => signer.address);
    return address;
  };

  async function balance(): Promise<FeePayerBalance> {
    const at = await feePayerAddress();
    const { value } = await rpc.getBalance(at, { commitment: 'confirmed' }).send();
    return { address: at, lamports: value };
  }

  /**
   * Whether the fee payer can put up `rent` and `signatures` fees and stay rent-exempt itself (a
   * system account left with less than that, but not empty, makes the chain refuse the
   * transaction).
   */
  async function canPay(rent: bigint, signatures = 0n): Promise<boolean> {
    walletMinimum ??= rpc
      .getMinimumBalanceForRentExemption(0n)
      .send()
      .catch((error: unknown) => {
        walletMinimum = undefined;
        throw error;
      });
    // Each signature's transaction at the price of the moment, priority fee included (decision 068).
    const [{ lamports }, minimum, fee] = await Promise.all([
      balance(),
      walletMinimum,
      signatures > 0n ? walletTransactionFee(rpc, INSTRUCTION.createVault) : 0n,
    ]);
    return lamports >= rent + signatures * fee + minimum;
  }

  return {
    balance,
    canPay,
    /** The rent of a program account of `size` bytes on this chain (read once per size). */
    rent(size: number): Promise<bigint> {
      let known = rents.get(size);
      if (!known) {
        known = rpc.getMinimumBalanceForRentExemption(BigInt(size)).send();
        known.catch(() => rents.delete(size));
        rents.set(size, known);
      }
      return known;
    },
    /** Refuses with FEE_PAYER_MESSAGES.low when the fee payer cannot pay `rent` and the fees. */
    async requireCanPay(rent: bigint, signatures = 0n): Promise<void> {
      if (!(await canPay(rent, signatures))) throw new FeePayerLowError();
    },
  };
}

export type FeePayerFunds = ReturnType<typeof createFeePayerFunds>;
