import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestStack, type TestStack } from './support/test-stack';

/**
 * The README's quick start, run as a reader would: its shell blocks, exactly as written, one after the other
 * in one bash session against a started stack. Only `MT_URL` comes from the test (the block reads it from the
 * environment); `curl` is wrapped to report each call's HTTP status on a side channel, so every step's status
 * is checked without changing what the blocks print or pipe into jq.
 */
const README = readFileSync(path.join(__dirname, '../../../README.md'), 'utf8');

/** The ```sh blocks of the "Quick start" section that talk to the API (the one that starts the stack is skipped). */
function quickStartBlocks(): string[] {
  const start = README.indexOf('\n## Quick start\n');
  const end = README.indexOf('\n## ', start + 1);
  const section = README.slice(start, end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
    .map((m) => m[1] ?? '')
    .filter((block) => block.includes('$MT_URL'));
}

/** curl prints bodies without a trailing newline: split stdout into its top-level JSON values. */
function jsonValues(text: string): Array<Record<string, unknown>> {
  const values: Array<Record<string, unknown>> = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') {
      if (depth++ === 0) start = i;
    } else if ((ch === '}' || ch === ']') && --depth === 0) {
      values.push(JSON.parse(text.slice(start, i + 1)) as Record<string, unknown>);
    }
  }
  return values;
}

interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
  statuses: number[];
  blocksDone: number;
}

const STATUS_MARK = '@@status ';
const BLOCK_MARK = '@@block-done';

function runBlocks(blocks: string[], env: NodeJS.ProcessEnv): Promise<ScriptRun> {
  // `pipefail`: a failing curl before `| jq` must fail the step, as it shows its error to a reader.
  const prelude = [
    'set -eo pipefail',
    `curl() { command curl -w '%{stderr}${STATUS_MARK}%{http_code}\\n' "$@"; }`,
  ];
  const script = [...prelude, ...blocks.flatMap((block) => [block, `echo '${BLOCK_MARK}' >&2`])].join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = stderr.split('\n');
      resolve({
        code,
        stdout,
        stderr,
        statuses: lines.filter((l) => l.startsWith(STATUS_MARK)).map((l) => Number(l.slice(STATUS_MARK.length))),
        blocksDone: lines.filter((l) => l === BLOCK_MARK).length,
      });
    });
  });
}

describe("the README's quick start", () => {
  let stack: TestStack | undefined;

  beforeAll(async () => {
    stack = await startTestStack({ name: 'quickstart' });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('has the journey in its code blocks: register, login, token, search, catalog, list, bulk-status', () => {
    const text = quickStartBlocks().join('\n');
    for (const step of ['/auth/register', '/auth/login', '/auth/tokens', '/movies?q=', '/movies/list', '/movies/bulk-status']) {
      expect(text).toContain(step);
    }
  });

  it('runs literally against a started stack, every step answering its documented status', async () => {
    const blocks = quickStartBlocks();
    const run = await runBlocks(blocks, { MT_URL: stack!.gatewayUrl.replace(/\/+$/, '') });
    if (run.code !== 0) throw new Error(`the quick start failed (exit ${run.code})\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`);

    expect({ code: run.code, blocksDone: run.blocksDone }).toEqual({ code: 0, blocksDone: blocks.length });
    // register 201, login 200, token 201, search 200, two catalog entries 201, two list entries 201,
    // bulk-status 200, the list 200.
    expect(run.statuses).toEqual([201, 200, 201, 200, 201, 201, 201, 201, 200, 200]);

    const [registered, search, matrixEntry, alienEntry, bulk, list] = jsonValues(run.stdout);
    expect(registered).toMatchObject({ username: 'alice', email: 'alice@example.com' });
    expect(search).toMatchObject({ data: [], total: 0 });
    expect(matrixEntry).toMatchObject({ status: 'watching', progress: 45, item: { title: 'The Matrix', year: 1999 } });
    expect(alienEntry).toMatchObject({ status: 'plan_to_watch', item: { title: 'Alien', year: 1979 } });
    expect(bulk).toEqual({ updated: 2, not_found: [] });
    expect(list).toMatchObject({ total: 2 });
    const titles = (list!['data'] as Array<{ status: string; item: { title: string } }>).map((e) => `${e.item.title}:${e.status}`);
    expect(titles.sort()).toEqual(['Alien:completed', 'The Matrix:completed']);
  });
});
