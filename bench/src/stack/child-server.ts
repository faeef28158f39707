import type { ChildProcess } from 'node:child_process';
import { HttpClient } from '../load/http-client';

/**
 * Waits until a server the bench started as a child process answers `probeUrl` with 200; stops it and throws
 * when it exits first or takes over 30 s (on a loaded machine, loading the modules alone takes seconds).
 */
export async function waitForChildServer(child: ChildProcess, probeUrl: string, what: string, pollMs = 50): Promise<void> {
  const client = new HttpClient(1);
  try {
    const deadline = Date.now() + 30_000;
    while ((await client.send(probeUrl, { timeoutMs: 2000 }).catch(() => undefined))?.status !== 200) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGTERM');
        throw new Error(`${what} did not start within 30 s`);
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  } finally {
    client.close();
  }
}

/** Stops a server the bench started and waits for it to exit (a profiled one writes its profile on the way out). */
export async function stopChildServer(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(killer);
}
