/**
 * Running one scenario on LiteSVM and on solana-bankrun and comparing what each reports, for the
 * escrow programs' tests (v1 in runtimes.test.ts, v2 in v2/escrow-v2-program.test.ts). A scenario
 * gets a fresh runtime and reports lamports (and outcomes) by name, never by address: keys are
 * random, names are not. Not used by the server.
 */
import type { Address } from '@solana/kit';
import { expect, it } from 'vitest';
import { type BankrunAvailability, loadBankrun, startBankrunRuntime } from './bankrun';
import { startLiteSvmRuntime } from './litesvm';
import type { ProgramRuntime, RuntimeResult } from './runtime';

export type Report = Record<string, bigint | string>;
export type Scenario = (runtime: ProgramRuntime) => Promise<Report>;

/** A result as a report's outcome: 'ok', or the runtime's error text. */
export const outcome = (result: RuntimeResult): string => (result.ok ? 'ok' : `failed: ${result.error}`);

/** The balance of each named address. */
export async function balances(runtime: ProgramRuntime, named: Record<string, Address>): Promise<Report> {
  const report: Report = {};
  for (const [name, address] of Object.entries(named)) report[name] = await runtime.getBalance(address);
  return report;
}

/**
 * The balances of a dare's creator and vault and of `others`, each named `<label>: <role>` (the
 * creator's role is 'creator', the vault's 'vault').
 */
export function dareBalances(
  runtime: ProgramRuntime,
  label: string,
  dare: { creator: { address: Address }; vault: Address },
  others: Record<string, { address: Address }> = {},
): Promise<Report> {
  const roles = { creator: dare.creator.address, vault: dare.vault };
  for (const [role, { address }] of Object.entries(others)) Object.assign(roles, { [role]: address });
  return balances(
    runtime,
    Object.fromEntries(Object.entries(roles).map(([role, a]) => [`${label}: ${role}`, a])),
  );
}

let availability: Promise<BankrunAvailability> | undefined;

/**
 * solana-bankrun once per worker. Where it has no binary, each test file asking for it says so in
 * one line, and its comparisons are skipped (`onBothRuntimes` is `it.skip`).
 */
export async function bankrunForTests(): Promise<{
  bankrun: BankrunAvailability;
  onBothRuntimes: typeof it;
}> {
  availability ??= loadBankrun();
  const bankrun = await availability;
  if (!bankrun.ok) console.warn(`solana-bankrun tests did not run: ${bankrun.reason}`);
  return { bankrun, onBothRuntimes: bankrun.ok ? it : (it.skip as typeof it) };
}

export async function runScenario(start: () => Promise<ProgramRuntime>, scenario: Scenario): Promise<Report> {
  const runtime = await start();
  try {
    return await scenario(runtime);
  } finally {
    await runtime.close();
  }
}

/** Runs `scenario` on a fresh LiteSVM and a fresh bankrun and returns both reports. */
export async function sameOnEveryRuntime(
  bankrun: BankrunAvailability,
  scenario: Scenario,
): Promise<{ litesvm: Report; bankrun: Report }> {
  if (!bankrun.ok) throw new Error(bankrun.reason);
  return {
    litesvm: await runScenario(startLiteSvmRuntime, scenario),
    bankrun: await runScenario(() => startBankrunRuntime(bankrun.bankrun), scenario),
  };
}

/**
 * Two tests of one scenario: on LiteSVM (always, so a platform without bankrun still runs it), and
 * on bankrun (skipped where it has no binary), whose report must equal LiteSVM's except for the
 * keys in `differs`. `check` asserts the absolute values of each runtime's report. LiteSVM's run
 * is shared by both tests, whichever comes first.
 */
export function scenarioOnEveryRuntime(
  bankrun: BankrunAvailability,
  title: string,
  scenario: Scenario,
  check: (report: Report, runtime: 'litesvm' | 'bankrun') => void,
  options: { differs?: readonly string[]; timeout?: number } = {},
): void {
  let onLiteSvm: Promise<Report> | undefined;
  const liteSvmReport = () => (onLiteSvm ??= runScenario(startLiteSvmRuntime, scenario));
  const timeout = options.timeout ?? 120_000;

  it(`${title} (LiteSVM)`, { timeout }, async () => {
    check(await liteSvmReport(), 'litesvm');
  });

  (bankrun.ok ? it : it.skip)(
    `${title} (solana-bankrun, the same lamports as LiteSVM)`,
    { timeout },
    async () => {
      if (!bankrun.ok) throw new Error(bankrun.reason);
      const report = await runScenario(() => startBankrunRuntime(bankrun.bankrun), scenario);
      const same = (r: Report) =>
        Object.fromEntries(Object.entries(r).filter(([key]) => !options.differs?.includes(key)));
      expect(same(report)).toEqual(same(await liteSvmReport()));
      check(report, 'bankrun');
    },
  );
}
