/**
 * What the refunds parts work with: the paying services' deps and, built once from them, one
 * refund run per vault at a time in this process (the database guards across processes).
 */
import type { PayingServiceDeps } from '#server/features/payouts/service';

export interface Refunds extends PayingServiceDeps {
  /** Runs `run` once the vault's previous run in this process ended, whatever its outcome. */
  oneRunPerVault: <T>(escrowWallet: string, run: () => Promise<T>) => Promise<T>;
}

/** The refunds parts' shared state, built once from the deps. */
export function refundsOf(deps: PayingServiceDeps): Refunds {
  const running = new Map<string, Promise<unknown>>();
  function oneRunPerVault<T>(escrowWallet: string, run: () => Promise<T>): Promise<T> {
    const previous = running.get(escrowWallet) ?? Promise.resolve();
    const next = previous.then(run);
    // What the next caller waits for: this run's end, whatever its outcome (the caller sees that).
    const settled: Promise<unknown> = next
      .catch(() => undefined)
      .finally(() => {
        if (running.get(escrowWallet) === settled) running.delete(escrowWallet);
      });
    running.set(escrowWallet, settled);
    return next;
  }
  return { ...deps, oneRunPerVault };
}
