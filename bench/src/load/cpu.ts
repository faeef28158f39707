import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on Linux). */
const TICKS_PER_S = 100;

/** CPU time (user + system) a process has used so far, in ms; NaN when it cannot be read (not Linux, gone). */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
  } catch {
    return Number.NaN;
  }
}

/** The direct children of a process (nginx's workers under its master). */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return children;
}

/** Processes to meter by name: fixed pids, or found afresh at each measurement (a database's backends come and go). */
export type WatchList = Record<string, number[] | (() => number[])>;

/** CPU used by a set of processes from now until `stop()`, in ms per name (processes gone by then count 0). */
export function cpuMeter(watch: WatchList) {
  const pids = Object.fromEntries(
    Object.entries(watch).map(([name, list]) => [name, typeof list === 'function' ? list() : list]),
  );
  const before = new Map(
    Object.values(pids)
      .flat()
      .map((pid) => [pid, cpuMs(pid)]),
  );
  return {
    stop(): Record<string, number> {
      const used = (pid: number) => {
        const delta = cpuMs(pid) - (before.get(pid) ?? Number.NaN);
        return Number.isFinite(delta) ? delta : 0;
      };
      return Object.fromEntries(
        Object.entries(pids).map(([name, list]) => [name, list.reduce((sum, pid) => sum + used(pid), 0)]),
      );
    },
  };
}

/** Processes whose command line matches `pattern` (e.g. the database server, which is not ours to know by pid). */
export function pidsMatching(pattern: RegExp): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (pattern.test(cmdline)) pids.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

/**
 * The database's processes on this machine: mongod, or the test sandbox's wire bridge and its PostgreSQL
 * (every backend). Shared with anyone else using them at the time.
 */
export const databasePids = (): number[] =>
  pidsMatching(/(^|\/)mongod(\s|$)|mongo-sandbox\/bridge|^postgres[: ]|\/postgresql\/.*\/bin\/postgres/);
/** The redis-server listening on `port` (other engineers' private servers run on other ports). */
export const redisPids = (port: string): number[] =>
  pidsMatching(new RegExp(`^(\\S*/)?redis-server \\S*:${port}(\\s|$)`));

/** The processes a request through the stack runs in, by role, for a comparison's CPU per request. */
export function stackWatch(pids: { catalog: number; gateway: number; bench: number; redisPort: string }): WatchList {
  return {
    catalog: [pids.catalog],
    gateway: [pids.gateway],
    load_generator: [pids.bench],
    database: databasePids,
    redis: () => redisPids(pids.redisPort),
  };
}
