import { findWorkspaceRoot } from '@mt/stack';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const WORKSPACE = findWorkspaceRoot();
/** The built CLI (`npm run build` / the test target's dependsOn). */
export const MT_MAIN = path.join(WORKSPACE, 'dist', 'apps', 'cli', 'main.js');

export interface MtResult {
  args: string[];
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON. */
  json<T = unknown>(): T;
  /** stderr's JSON error report (with --json). */
  errorJson(): { error: Record<string, unknown> };
}

export interface MtOptions {
  env?: NodeJS.ProcessEnv;
  input?: string;
  cwd?: string;
  /** Another `mt` executable (the installed one) instead of node + dist/apps/cli/main.js. */
  bin?: string;
  timeoutMs?: number;
}

/**
 * Runs `mt` as its own process in a clean environment: HOME and XDG_CONFIG_HOME of the home it is given, no
 * terminal (stdin a pipe, closed after `input`). Every run is recorded so a test can search everything the
 * CLI ever printed.
 */
export class MtRunner {
  readonly runs: MtResult[] = [];
  readonly home: string;

  constructor(
    readonly url: string,
    home?: string,
  ) {
    this.home = home ?? mkdtempSync(path.join(os.tmpdir(), 'mt-home-'));
  }

  /** Removes the home directory (config and credentials included). */
  dispose(): void {
    rmSync(this.home, { recursive: true, force: true });
  }

  get configDir(): string {
    return path.join(this.home, '.config', 'media-tracker');
  }

  env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return {
      PATH: process.env['PATH'],
      HOME: this.home,
      XDG_CONFIG_HOME: path.join(this.home, '.config'),
      MT_URL: this.url,
      LANG: 'C.UTF-8',
      ...extra,
    };
  }

  run(args: string[], options: MtOptions = {}): Promise<MtResult> {
    const [command, argv] = options.bin ? [options.bin, args] : [process.execPath, [MT_MAIN, ...args]];
    const child = spawn(command, argv, { cwd: options.cwd ?? this.home, env: this.env(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(options.input ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => {
        clearTimeout(timer);
        const result: MtResult = {
          args,
          code,
          stdout,
          stderr,
          json: <T>() => JSON.parse(stdout) as T,
          errorJson: () => JSON.parse(stderr) as { error: Record<string, unknown> },
        };
        this.runs.push(result);
        resolve(result);
      });
    });
  }
}
