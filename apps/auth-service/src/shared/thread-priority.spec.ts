import { silentLogger } from '@mt/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { HELPER_THREAD_NICE, lowerHelperThreadPriority } from './thread-priority';

/** The nice value of each thread of a process (field 19 of /proc/<pid>/task/<tid>/stat). */
function niceValues(pid: number): Map<number, number> {
  const values = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    values.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return values;
}

const linux = existsSync('/proc/self/task');

(linux ? describe : describe.skip)('lowerHelperThreadPriority', () => {
  let child: ChildProcess;

  beforeAll(async () => {
    // A Node process whose thread pool has started (a crypto job), like the auth service after its warm-up hash.
    child = spawn(
      process.execPath,
      [
        '-e',
        "require('crypto').pbkdf2('x', 'y', 1, 8, 'sha256', () => console.log('ready')); setInterval(() => {}, 1000)",
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise((resolve) => child.stdout!.once('data', resolve));
  });

  afterAll(() => {
    child.kill();
  });

  it('lowers every thread but the main one, which keeps its priority', () => {
    const pid = child.pid!;
    const before = niceValues(pid);
    expect(before.size).toBeGreaterThan(4); // main, V8 helpers, the libuv pool

    const lowered = lowerHelperThreadPriority(silentLogger(), HELPER_THREAD_NICE, pid);

    const after = niceValues(pid);
    expect(lowered).toBe(after.size - 1);
    expect(after.get(pid)).toBe(before.get(pid));
    for (const [tid, nice] of after) if (tid !== pid) expect(nice).toBe(HELPER_THREAD_NICE);
  });

  it('does nothing for a process that does not exist', () => {
    expect(lowerHelperThreadPriority(silentLogger(), HELPER_THREAD_NICE, 2 ** 22 + 12345)).toBe(0);
  });
});
