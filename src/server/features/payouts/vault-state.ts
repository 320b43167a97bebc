import { address } from '@solana/kit';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { fetchChainTime } from '#server/chain/escrow-program/chain-clock';
import { reclaimProposeNonce } from '#server/features/judging/propose-nonce';
import { escrowProgramVersion, markEscrowClosed } from './repo';
import type { PayoutsDeps } from './transfers';

/** How a vault stands on chain, for the jobs that finish dares. */
/** `proposed`: a v2 vault whose named winners wait for the payout window (no refund, no cancel). */
export type VaultState = 'closed' | 'open' | 'settled' | 'refunding' | 'refundable' | 'proposed';

export function createVaultState({ db, chain, escrowKeys, escrowPrograms, clock }: PayoutsDeps) {
  const { rpc } = chain;

  /**
   * A v2 vault that has ended (executed, refunding or closed) gives its propose nonce's rent back
   * to the fee payer (decision 042). False when that could not be done now: the caller keeps the
   * vault among those the job follows, so the next run tries again.
   */
  async function nonceReclaimed(escrowWallet: string): Promise<boolean> {
    try {
      await reclaimProposeNonce(rpc, await escrowKeys.feePayer(), address(escrowWallet));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Where a vault stands: closed (then marked closed in the books), open, settled, refunding, or
   * open but past its refund_after by the chain's clock (anyone may refund it). A v2 vault past
   * its proposals returns its propose nonce's rent first; a closed one is marked closed only once
   * that is done, because the jobs stop following a vault the books call closed.
   */
  return async function vaultState(escrowWallet: string): Promise<VaultState> {
    const vault = await fetchVault(rpc, escrowPrograms, address(escrowWallet));
    if (!vault) {
      const reclaimed =
        (await escrowProgramVersion(db, escrowWallet)) === 1 || (await nonceReclaimed(escrowWallet));
      if (reclaimed) await markEscrowClosed(db, escrowWallet, clock());
      return 'closed';
    }
    if (vault.version === 2 && (vault.status === 'settled' || vault.status === 'refunding'))
      await nonceReclaimed(escrowWallet);
    if (vault.status !== 'open') return vault.status;
    return (await fetchChainTime(rpc)) >= vault.refundAfter ? 'refundable' : 'open';
  };
}
