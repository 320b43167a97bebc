import { address, type Signature } from '@solana/kit';
import { creditOutsideDeposits } from '#server/features/payments/crediting/outside-deposits';
import { bookedSignatures, findNoticeCursor, saveNoticeCursor } from './repo';
import type { BookedPayment } from './settle';
import type { PayoutsDeps, Transfers } from './transfers';

export function createVaultNotice({ db, chain, clock }: PayoutsDeps, transfers: Transfers) {
  const { rpc } = chain;
  /**
   * The ledger follows the chain: every landed transaction of this vault that paid something out
   * and is not booked yet (a payer's own 'Refund me', `npm run refund-dare`, a transaction of
   * ours whose booking was interrupted) is booked now, and every deposit made straight on chain
   * (a message the server never built) is credited to its payer (decision 058). The vault's history is read from the
   * cursor on (decision 037): only signatures newer than the newest one a run read before, so a
   * stranger's thousands of transactions that merely mention the vault are read once. The
   * cursor moves past a signature only once it is read (and booked if it paid): one the node
   * cannot serve yet stops the run there, and the next run reads it again. Returns what was
   * booked.
   */
  return async function noticeVaultPayments(target: {
    escrowWallet: string;
    dareId: number | null;
  }): Promise<BookedPayment[]> {
    // Payments in are booked under their own signatures; entries and closes move nothing of the pool.
    const booked = await bookedSignatures(db, target.escrowWallet);
    const until = (await findNoticeCursor(db, target.escrowWallet)) as Signature | null;
    const unread: { signature: Signature; failed: boolean }[] = [];
    let before: Signature | undefined;
    for (;;) {
      const page = await rpc
        .getSignaturesForAddress(address(target.escrowWallet), {
          limit: 1000,
          commitment: 'confirmed',
          ...(before ? { before } : {}),
          ...(until ? { until } : {}),
        })
        .send();
      for (const entry of page) unread.push({ signature: entry.signature, failed: entry.err !== null });
      if (page.length < 1000) break;
      before = page[page.length - 1]!.signature;
    }
    const found: BookedPayment[] = [];
    let newestRead: string | null = null;
    try {
      // Oldest first, as the chain ran them.
      for (const { signature, failed } of unread.reverse()) {
        if (!failed && !booked.has(signature)) {
          const effects = await transfers.effectsOf(signature, target.escrowWallet);
          if (!effects) break;
          if (effects.deposits.length > 0) {
            const credited = await creditOutsideDeposits(db, rpc, {
              ...target,
              signature,
              deposits: effects.deposits,
              now: clock(),
            });
            if (credited === 'unread') break;
          }
          if (effects.refunds.length > 0 || effects.settle) {
            const result = await transfers.bookLanded(signature, target, effects);
            if (result === null) break;
            found.push(...result);
          }
        }
        newestRead = signature;
      }
    } finally {
      if (newestRead) await saveNoticeCursor(db, target.escrowWallet, newestRead, clock());
    }
    return found;
  };
}
