/**
 * The clock of a new embedded chain whose first transactions should lie in the past: it runs
 * `lagMs` behind the wall clock until `catchUp()`, when the chain's time jumps forward to now, as a
 * warp does (slots, the Clock sysvar and blockhash expiry follow). The demo data uses it so that a
 * winner it names is past the payout window, and paid, by the time the server listens
 * (docs/decisions/046). Nothing persists the lag: a start that dies before catchUp() runs on the
 * wall clock the next time, and a chain's time never goes backwards.
 */
export interface LaggingClock {
  now(): Date;
  catchUp(): void;
}

export function createLaggingClock(lagMs: number, wallClock: () => Date = () => new Date()): LaggingClock {
  let lag = lagMs;
  return {
    now: () => new Date(wallClock().getTime() - lag),
    catchUp() {
      lag = 0;
    },
  };
}
