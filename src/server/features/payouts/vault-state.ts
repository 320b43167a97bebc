import { address } from '@solana/kit';
import { fetchVault } from '../../chain/escrow-program/accounts';
import { fetchChainTime } from '../../chain/escrow-program/chain-clock';
import { markEscrowClosed } from './repo';
import type { PayoutsDeps } from './transfers';

/** How a vault stands on chain, for the jobs that finish dares. */
/** `proposed`: a v2 vault whose named winners wait for the payout window (no refund, no cancel). */
export type VaultState = 'closed' | 'open' | 'settled' | 'refunding' | 'refundable' | 'proposed';

export function createVaultState({ db, chain, escrowPrograms, clock }: PayoutsDeps) {
  const { rpc } = chain;
  /**
   * Where a vault stands: closed (then marked closed in the books), open, settled, refunding, or
   * open but past its refund_after by the chain's clock (anyone may refund it).
   */
  return async function vaultState(escrowWallet: string): Promise<VaultState> {
    const vault = await fetchVault(rpc, escrowPrograms, address(escrowWallet));
    if (!vault) {
      await markEscrowClosed(db, escrowWallet, clock());
      return 'closed';
    }
    if (vault.status !== 'open') return vault.status;
    return (await fetchChainTime(rpc)) >= vault.refundAfter ? 'refundable' : 'open';
  };
}
