import type { Logger } from '@mt/logging';
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Nice value of the helper threads: below the event loop (0), yet never starved. At 10 a thread gets about a
 * tenth of a nice-0 thread's share; on a saturated 2-core host (the resilience load run: gateway, catalogs
 * and PostgreSQL all busy) hashing then kept up with fewer logins than the 2.4/s of the mix, the queue grew by
 * ~0.3 s per second and logins ended in the gateway's 10 s 504. At 2 a thread still gets ~64 % of an equal share.
 */
export const HELPER_THREAD_NICE = 2;

/**
 * argon2id runs on libuv's thread pool, and a hash is long CPU work. In a login storm those threads would
 * compete with the event loop as equals, and probes and every other request would queue behind password
 * hashing (figures: bench/README.md "Figures behind decisions in the code").
 * Lowering the priority of every thread but the main one (the thread pool and V8's helper threads) keeps
 * them using every idle cycle while the event loop gets the CPU first. Linux only (a thread id is a valid
 * target of setpriority there); call it once the thread pool has started (the first hash starts it).
 * Returns how many threads were lowered.
 */
export function lowerHelperThreadPriority(
  logger: Logger,
  nice = HELPER_THREAD_NICE,
  pid = process.pid,
): number {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0; // not Linux: nothing to do
  }
  let lowered = 0;
  for (const thread of threads) {
    const tid = Number(thread);
    if (tid === pid) continue;
    try {
      setPriority(tid, nice);
      lowered += 1;
    } catch (error) {
      // The thread ended meanwhile, or the platform refuses: hashing then simply competes as before.
      logger.debug(
        { err: { name: (error as Error).name, message: (error as Error).message } },
        'could not lower a helper thread priority',
      );
    }
  }
  return lowered;
}
