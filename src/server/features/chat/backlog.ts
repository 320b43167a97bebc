/**
 * Bytes a socket may hold unsent in the server's memory (beyond what the kernel's buffers took)
 * for longer than BEHIND_GRACE_MS: a client that stopped reading (or reads far slower than its
 * rooms talk) is dropped rather than kept in memory without end; a page that comes back
 * reconnects and reads the history again (decision 084).
 */
export const MAX_UNSENT_BYTES = 1024 * 1024;
/**
 * How long a socket's unsent bytes may stay past MAX_UNSENT_BYTES: a reader drains a large write
 * (a burst's frames, several rooms' batches in one turn) well within it.
 */
export const BEHIND_GRACE_MS = 1000;
/** Past this, a socket is dropped at once: what one socket may cost the server's memory. */
export const MAX_UNSENT_BYTES_AT_ONCE = 4 * MAX_UNSENT_BYTES;

/**
 * One socket's guard: told the socket's unsent bytes before each write, answers whether it may
 * take more (false: drop it).
 */
export function backlogGuard(now: () => number = () => performance.now()): (unsent: number) => boolean {
  let overSince: number | null = null;
  return (unsent) => {
    if (unsent <= MAX_UNSENT_BYTES) {
      overSince = null;
      return true;
    }
    if (unsent > MAX_UNSENT_BYTES_AT_ONCE) return false;
    const at = now();
    overSince ??= at;
    return at - overSince < BEHIND_GRACE_MS;
  };
}
