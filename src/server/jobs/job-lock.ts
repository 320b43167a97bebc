import type { Database } from '#server/db/client';

/** The background jobs that must run on one instance at a time. */
export type JobName = 'payouts' | 'video-cleanup' | 'payments' | 'judging' | 'notifications';

/** Advisory lock keys: (DarePool's space, the job). Migrations use the single key 7243501. */
const LOCK_SPACE = 7243;
const JOB_KEYS: Record<JobName, number> = {
  payouts: 1,
  'video-cleanup': 2,
  payments: 3,
  judging: 4,
  notifications: 5,
};

export type Exclusive<T> = { ran: true; value: T } | { ran: false };

export interface JobLock {
  /**
   * Runs `run` while holding the job's lock for the whole deployment, or skips it at once when
   * another instance holds it (that instance is doing the same work right now).
   */
  runExclusive<T>(job: JobName, run: () => Promise<T>): Promise<Exclusive<T>>;
}

/**
 * On PostgreSQL, a session-level advisory lock (`pg_try_advisory_lock`) held on one pooled
 * connection for the run: a run spans many transactions and waits on the chain, so a
 * transaction-level lock would not fit. If the instance dies, its connection closes and PostgreSQL
 * releases the lock, so the next run anywhere takes it. Embedded (PGlite) there is one process per
 * data folder (data-dir-lock.ts), so every run simply runs.
 */
export function createJobLock(database: Database): JobLock {
  const pool = database.pool;
  if (database.kind !== 'postgres' || !pool) {
    return { runExclusive: async (_job, run) => ({ ran: true, value: await run() }) };
  }
  return {
    async runExclusive(job, run) {
      const key = [LOCK_SPACE, JOB_KEYS[job]];
      const client = await pool.connect();
      let locked = false;
      let broken: Error | undefined;
      // A checked-out client's lost connection is reported here, not to the pool: keep it from
      // crashing the process, and drop the client afterwards (the lock went with the connection).
      const lost = (error: Error) => {
        broken = error;
      };
      client.on('error', lost);
      try {
        const { rows } = await client.query<{ locked: boolean }>(
          'select pg_try_advisory_lock($1, $2) as locked',
          key,
        );
        locked = rows[0]?.locked === true;
        if (!locked) return { ran: false };
        return { ran: true, value: await run() };
      } finally {
        client.off('error', lost);
        if (locked && !broken) {
          await client.query('select pg_advisory_unlock($1, $2)', key).catch((error: Error) => {
            broken = error;
          });
        }
        // A connection whose unlock failed is dropped, not reused: closing it releases the lock.
        client.release(broken);
      }
    },
  };
}
