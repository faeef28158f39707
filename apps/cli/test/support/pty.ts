import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { MT_MAIN } from './run-mt';

export interface PtyResult {
  output: string;
  exit_code: number;
  unanswered: string[];
}

/** `mt <args>` on a pseudo-terminal (python3's pty module), typing each reply once its prompt has appeared. */
export function runInPty(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string; script?: Array<[string, string]>; columns?: number }): PtyResult {
  const config = {
    command: [process.execPath, MT_MAIN, ...args],
    env: options.env,
    cwd: options.cwd,
    script: options.script ?? [],
    timeout: 45,
    columns: options.columns ?? 120,
  };
  const run = spawnSync('python3', [path.join(__dirname, 'pty-run.py')], { input: JSON.stringify(config), encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`pty-run.py failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as PtyResult;
}
