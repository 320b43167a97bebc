import { describe, expect, it } from 'vitest';
import { BusyBudget, MAX_WAITING_PER_CLIENT, RPC_LIMITS } from './rpc-guard';

/** Synchronous work of `ms` milliseconds, as a scan of the chain is. */
const busy = (ms: number) => () => {
  const until = performance.now() + ms;
  while (performance.now() < until);
  return 'done';
};

describe('the served RPC budget', () => {
  it("serves other clients' sendTransaction while one client floods expensive requests", async () => {
    const budget = new BusyBudget();
    const flood: Promise<unknown>[] = [];
    let refusedAtOnce = 0;
    for (let i = 0; i < 400; i += 1) {
      try {
        flood.push(Promise.resolve(budget.run('getProgramAccounts', busy(5), '10.0.0.1')));
      } catch {
        refusedAtOnce += 1;
      }
    }
    const payments = Array.from({ length: 27 }, (_, i) =>
      Promise.resolve(budget.run('sendTransaction', busy(1), `10.0.1.${i}`)),
    );
    expect(await Promise.all(payments)).toEqual(payments.map(() => 'done'));
    // The flooder waits behind itself: past its own queue it is refused at once.
    expect(refusedAtOnce).toBe(400 - MAX_WAITING_PER_CLIENT);
    const outcomes = await Promise.allSettled(flood);
    // The flooder spent its own share of each second, and was refused past it.
    expect(outcomes.some((outcome) => outcome.status === 'rejected')).toBe(true);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled').length).toBeLessThanOrEqual(
      Math.ceil(RPC_LIMITS.busyMsPerClientPerSecond / 5) * 2 + 2,
    );
  });

  it('refuses a client past its own share of a second even when nobody else spends', async () => {
    const budget = new BusyBudget();
    const runs = Array.from({ length: 40 }, () =>
      Promise.resolve(budget.run('getProgramAccounts', busy(10), '10.0.0.2')),
    );
    const outcomes = await Promise.allSettled(runs);
    const served = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThan(40);
  });
});
