/**
 * npm run reconcile — compares every dare's vault with the ledger (what the vault holds above its
 * rent against the sum of its ledger lines; a closed vault must be zero on both sides) and exits
 * non-zero on any difference, printing it. On the embedded defaults the server must be stopped first (the
 * data folder has one writer); against PostgreSQL and a real cluster it can run any time.
 */
import { lamportsToSol } from '#contract/money';
import { loadConfig, loadDotEnv } from '#server/config';
import { reconcileEscrows } from '#server/ledger/reconcile';
import { openRuntime } from '#server/runtime';

loadDotEnv();
const config = loadConfig();
let runtime: Awaited<ReturnType<typeof openRuntime>>;
try {
  runtime = await openRuntime(config);
} catch (error) {
  console.error(`reconcile: ${(error as Error).message}`);
  process.exit(2);
}
try {
  const v1 = runtime.escrowProgram?.programId ?? null;
  const v2 = runtime.escrowProgramV2.programId;
  const report = await reconcileEscrows(runtime.database.db, runtime.chain.rpc, v1 ? [v1, v2] : [v2]);
  console.log(
    `Checked ${report.checked} vault(s) of ${v1 ? `programs ${v1} (v1) and ${v2} (v2)` : `program ${v2} (v2; no v1 on this chain)`} on ${runtime.chain.cluster} against the ledger (${runtime.database.description}).`,
  );
  for (const d of report.differences) {
    const sign = d.difference > 0n ? '+' : '-';
    const abs = d.difference > 0n ? d.difference : -d.difference;
    console.log(
      `DIFFERENCE ${d.escrowWallet}: on chain ${lamportsToSol(d.onChain)} SOL above rent, ledger ${lamportsToSol(d.ledger)} SOL (${sign}${lamportsToSol(abs)} SOL)`,
    );
  }
  for (const vault of report.foreign)
    console.log(
      `FOREIGN ${vault}: a vault not made with DarePool's terms, holding nothing of the ledger (not compared)`,
    );
  if (report.differences.length === 0) console.log('No difference.');
  process.exitCode = report.differences.length === 0 ? 0 : 1;
} finally {
  await runtime.close();
}
