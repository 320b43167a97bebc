import type { FastifyBaseLogger } from 'fastify';
import type { JobLock, JobName } from './job-lock';

/** 'skipped': another instance was running the job (or this one could not ask the lock). */
export type RunOutcome = 'ran' | 'skipped';

export interface PeriodicJob {
  /** Runs the job now: joins a run already under way here, skips when another instance runs it. */
  runNow(): Promise<RunOutcome>;
  /** Runs it every `intervalMs` from now on. */
  start(): void;
  /** No more runs; resolves when the one under way (if any) has finished. */
  stop(): Promise<void>;
}

/**
 * A background job of this instance: one run at a time here, and one at a time in the whole
 * deployment through the job lock. `run` handles its own errors; a failure to ask the lock (the
 * database away) is logged and the run skipped until the next tick.
 */
export function periodicJob({
  name,
  lock,
  intervalMs,
  run,
  log,
}: {
  name: JobName;
  lock: JobLock;
  intervalMs: number;
  run: () => Promise<void>;
  log: FastifyBaseLogger;
}): PeriodicJob {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<RunOutcome> | null = null;

  const runNow = () => {
    running ??= lock
      .runExclusive(name, run)
      .then((outcome): RunOutcome => {
        if (!outcome.ran) log.debug(`${name} job skipped: another instance is running it`);
        return outcome.ran ? 'ran' : 'skipped';
      })
      .catch((error): RunOutcome => {
        log.error({ err: error }, `${name} job could not start`);
        return 'skipped';
      })
      .finally(() => {
        running = null;
      });
    return running;
  };

  return {
    runNow,
    start() {
      timer = setInterval(() => void runNow(), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
