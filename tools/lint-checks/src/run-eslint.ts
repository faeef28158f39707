import { spawnSync } from 'node:child_process';
import path from 'node:path';

export const WORKSPACE = path.resolve(__dirname, '../../..');

export interface LintMessage {
  ruleId: string | null;
  message: string;
}

/**
 * Lints `text` as if it were the file at `file` (relative to the workspace), with the workspace's own
 * eslint.config.mjs. A child process, because ESLint loads that config as an ES module.
 */
export function lintAs(file: string, text: string): LintMessage[] {
  const run = spawnSync(process.execPath, [path.join(WORKSPACE, 'node_modules/eslint/bin/eslint.js'), '--no-ignore', '--format', 'json', '--stdin', '--stdin-filename', file], {
    cwd: WORKSPACE,
    input: text,
    encoding: 'utf8',
    env: { ...process.env, NX_DAEMON: 'false' },
  });
  const start = run.stdout.indexOf('[');
  if (start < 0) throw new Error(`eslint printed no result (exit ${run.status}): ${run.stderr}`);
  const [result] = JSON.parse(run.stdout.slice(start)) as { messages: LintMessage[] }[];
  return result.messages;
}

export const ruleMessages = (messages: LintMessage[], ruleId: string) => messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);
