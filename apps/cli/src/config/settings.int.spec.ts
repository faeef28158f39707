import { buildSync } from 'esbuild';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Several `mt` processes at once (two shells logging in to two servers, a script revoking its token while
 * another logs in) all rewrite credentials.json: each must keep what the others wrote.
 */
describe('the config store under concurrent processes', () => {
  let scratch: string;
  let writer: string;
  beforeAll(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'mt-race-'));
    writer = path.join(scratch, 'writer.js');
    buildSync({ entryPoints: [path.join(__dirname, '../../test/support/settings-writer.ts')], outfile: writer, bundle: true, platform: 'node', format: 'cjs', logLevel: 'error' });
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const run = (dir: string, name: string, count: number) =>
    new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, [writer, dir, name, String(count)], { stdio: ['ignore', 'ignore', 'inherit'] });
      child.once('error', reject);
      child.once('exit', resolve);
    });

  it('loses no credential when processes write it at the same time, over many trials', async () => {
    const writers = 6;
    const each = 40;
    for (let trial = 0; trial < 3; trial += 1) {
      const dir = path.join(scratch, `trial-${trial}`);
      const codes = await Promise.all(Array.from({ length: writers }, (_, i) => run(dir, `w${i}`, each)));
      expect(codes).toEqual(Array.from({ length: writers }, () => 0));
      const file = JSON.parse(readFileSync(path.join(dir, 'media-tracker', 'credentials.json'), 'utf8')) as { servers: Record<string, unknown> };
      expect({ trial, stored: Object.keys(file.servers).length }).toEqual({ trial, stored: writers * each });
      // No lock or temporary file is left behind.
      expect(readdirSync(path.join(dir, 'media-tracker')).sort()).toEqual(['config.json', 'credentials.json']);
    }
  });
});
