import type { FastifyInstance } from 'fastify';

/** After the drain's time is up, what is left of the shutdown (jobs, the chain's state) gets this long. */
const AFTER_DRAIN_MS = 15_000;

/**
 * SIGTERM/SIGINT drain the instance: new connections are refused at once (a load balancer's
 * health check fails and it sends traffic elsewhere), requests under way get `timeoutMs` to finish
 * (then their connections are cut), chat sockets are closed with 'restarting' so clients reconnect
 * elsewhere, a payout job run under way is waited for (app.close's hooks), then the database and
 * chain close. Exits 0 once all that is done; a second signal exits 1 at once.
 */
export function drainOnSignals(
  app: FastifyInstance,
  { timeoutMs, closeRuntime }: { timeoutMs: number; closeRuntime: () => Promise<void> },
): void {
  let draining = false;
  const drain = async (signal: string) => {
    if (draining) {
      app.log.warn(`${signal} received again: stopping without waiting`);
      process.exit(1);
    }
    draining = true;
    app.log.info(
      `${signal} received: draining (new requests refused, those under way get ${timeoutMs / 1000} s)`,
    );
    // A keep-alive connection whose last request finishes during the drain would otherwise stay
    // open, idle, until its keep-alive timeout (72 s in Fastify): close such ones as they go idle.
    const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
    const cut = setTimeout(() => {
      app.log.warn(`requests still under way after ${timeoutMs / 1000} s: closing their connections`);
      // Chat sockets are cut by the chat's own preClose (features/chat/routes.ts).
      app.server.closeAllConnections();
    }, timeoutMs);
    cut.unref();
    const giveUp = setTimeout(() => {
      app.log.error('shutdown did not finish in time: exiting');
      process.exit(1);
    }, timeoutMs + AFTER_DRAIN_MS);
    giveUp.unref();
    await app.close().catch((error) => app.log.error({ err: error }, 'closing the app failed'));
    clearInterval(closeIdle);
    clearTimeout(cut);
    await closeRuntime().catch((error) =>
      app.log.error({ err: error }, 'closing the database or chain failed'),
    );
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void drain('SIGINT'));
  process.on('SIGTERM', () => void drain('SIGTERM'));
}
