import { buildApp } from './app';
import { createLaggingClock } from './chain/embedded/lagging-clock';
import { chainStateExists } from './chain/embedded/state-files';
import { ConfigError, loadConfig, loadDotEnv } from './config';
import { DEMO_ADMIN_USERNAME, type SeedResult, seedDemoData } from './demo/seed';
import type { AppDeps } from './deps';
import { demoAdminWallet } from './judging-keys';
import { loggerOptions } from './logger';
import { describeRateLimits } from './rate-limit/open';
import { openRuntime } from './runtime';
import { drainOnSignals } from './shutdown';
import { describeStartTimings, startTimer } from './start-timings';
import { describeVideoStorage, openVideoStorage } from './storage/open';

/** Time between the demo's propose and the chain catching up, beyond the payout window itself. */
const DEMO_HISTORY_MARGIN_MS = 120_000;

export interface StartOptions {
  /**
   * The web app's build when it runs beside the start (npm start): the database, the chain and the
   * demo data get ready meanwhile, and only the routes wait for it.
   */
  webBuild?: Promise<unknown>;
  /** When (performance.now()) the web build began, for the start's timings. */
  webBuildStartedAt?: number;
  /** Milliseconds `npm start` spent compiling the server before loading it (0 when it was current). */
  compileMs?: number;
}

/** The server as `npm start` runs it: configuration, storage, database, chain, demo data, HTTP. */
export async function startServer({
  webBuild,
  webBuildStartedAt = 0,
  compileMs = 0,
}: StartOptions = {}): Promise<void> {
  const timer = startTimer();
  if (compileMs > 0) timer.split('compile the server', compileMs);
  timer.mark('node and loading the server');
  // Awaited below, before the routes; a failure before then is reported there, not as unhandled.
  webBuild?.catch(() => {});
  /** How long the web build took, if one ran (it resolves true when it built). */
  let webBuildMs: number | null = null;
  webBuild?.then(
    (built) => {
      if (built === true) webBuildMs = performance.now() - webBuildStartedAt;
    },
    () => {},
  );
  let config: ReturnType<typeof loadConfig>;
  try {
    loadDotEnv();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Checked before anything is opened: a bucket that cannot be reached stops the start at once.
  const storage = await openVideoStorage(config.storage);
  // A new demo's chain begins a payout window ago, so the winner the demo names is paid by the time
  // the server listens (docs/decisions/046); a chain that exists keeps its own time.
  const history =
    config.seedDemoData && config.chain.embedded && !chainStateExists(config.chain.stateDir)
      ? createLaggingClock(Number(config.judging.payoutWindowSeconds) * 1000 + DEMO_HISTORY_MARGIN_MS)
      : null;
  timer.mark('configuration and video storage');
  const runtime = await openRuntime(config, {
    serveChainRpc: true,
    chainClock: history?.now,
    onPhase: timer.mark,
  });
  const { database, chain, escrowKeys } = runtime;
  const clock = () => new Date();
  const deps: AppDeps = {
    config,
    database,
    chain,
    escrowKeys,
    escrowProgramId: runtime.escrowProgram?.programId ?? null,
    escrowProgramV2Id: runtime.escrowProgramV2.programId,
    judging: runtime.judging,
    storage,
    clock,
  };

  const seeded: SeedResult =
    config.seedDemoData && config.chain.embedded
      ? await seedDemoData({
          ...deps,
          adminPassword: config.demoAdminPassword,
          adminWallet: await demoAdminWallet(config.dataDir),
          payoutWindowPassed: history ? async () => history.catchUp() : undefined,
        })
      : { seeded: false };
  // Whatever the seed did (a database that had users is not seeded), the chain runs on time now.
  history?.catchUp();
  timer.mark(seeded.seeded ? 'demo data and its on-chain history' : 'demo data check');

  await webBuild;
  timer.mark('waiting for the web build');
  const app = await buildApp({
    ...deps,
    logger: loggerOptions(config),
  });
  timer.mark('routes');

  drainOnSignals(app, { timeoutMs: config.shutdownTimeoutMs, closeRuntime: runtime.close });

  const address = await app.listen({ host: config.host, port: config.port });
  const shownAddress = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  timer.mark('listen');
  const startTimings = timer.done(webBuildMs);
  app.log.info(`DarePool listening on ${shownAddress}`);
  app.log.info({ startTimings }, `Started in ${describeStartTimings(startTimings)}`);
  app.log.info(`Database: ${database.description}${seeded.seeded ? ' (demo data loaded)' : ''}`);
  app.log.info(`Videos: ${describeVideoStorage(config.storage)}`);
  app.log.info(`Rate limits: ${describeRateLimits(config)}`);
  app.log.info(
    `Chain: ${chain.embedded ? `embedded LiteSVM (${chain.cluster}), state in ${config.chain.embedded ? config.chain.stateDir : ''}` : `${chain.cluster} via ${config.chain.embedded ? '' : new URL(config.chain.rpcUrl).host}`}`,
  );
  const v1 = runtime.escrowProgram;
  app.log.info(
    v1
      ? `Escrow program: ${v1.programId} (${v1.action}; docs/program.md)`
      : 'Escrow program v1: none (this chain has no v1 vault; docs/decisions/081)',
  );
  if (v1?.notice) app.log.info(v1.notice);
  app.log.info(
    `Escrow program v2 (new dares): ${runtime.escrowProgramV2.programId} (${runtime.escrowProgramV2.action})`,
  );
  if (runtime.escrowProgramV2.notice) app.log.info(runtime.escrowProgramV2.notice);
  const { judging } = runtime;
  app.log.info(
    `Judges: ${judging.threshold} of ${judging.judges.length} (${judging.judges.join(', ')}), Major Dares ${judging.majorThreshold}; guardian ${judging.guardian}; canceller ${(await escrowKeys.moderator()).address}; payout window ${Number(judging.payoutWindowSeconds) / 3600} h`,
  );
  const rpcServer = chain.rpcServer;
  if (rpcServer?.serving) {
    app.log.info(
      `Chain RPC for wallets, the solana CLI and Solana Explorer: ${rpcServer.httpUrl} (PubSub ${rpcServer.wsUrl})`,
    );
  } else if (rpcServer) {
    app.log.warn(
      `Chain RPC not served: ${rpcServer.reason}. The app works as usual, but wallets, the solana CLI and Solana Explorer cannot reach the embedded chain; set CHAIN_RPC_PORT to a free port, or to 0 to turn this off.`,
    );
  }
  if (seeded.seeded && seeded.admin.generated) {
    // Only now: the database keeps just its hash. A warning, so LOG_LEVEL=warn still shows it.
    app.log.warn(
      `Demo admin: username "${seeded.admin.username}", password "${seeded.admin.password}" (generated at this first start and shown only now; DEMO_ADMIN_PASSWORD sets it)`,
    );
  } else if (seeded.seeded) {
    app.log.info(`Demo admin: username "${seeded.admin.username}", password from DEMO_ADMIN_PASSWORD`);
  } else if (config.seedDemoData && config.chain.embedded) {
    app.log.info(
      `Demo admin: username "${DEMO_ADMIN_USERNAME}" (its password was shown in the log of the first start)`,
    );
  }
}

/** Ends the process when the start failed, saying why in one line. */
export function failedToStart(error: unknown): never {
  console.error(`DarePool failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
