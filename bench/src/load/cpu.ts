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

/** CPU used by a set of processes between `start()` and `stop()`, in ms per process name. */
export function cpuMeter(pids: Record<string, number[]>) {
  const total = (list: number[]) => list.reduce((sum, pid) => sum + cpuMs(pid), 0);
  const before = Object.fromEntries(Object.entries(pids).map(([name, list]) => [name, total(list)]));
  return {
    stop(): Record<string, number> {
      return Object.fromEntries(Object.entries(pids).map(([name, list]) => [name, total(list) - before[name]!]));
    },
  };
}
