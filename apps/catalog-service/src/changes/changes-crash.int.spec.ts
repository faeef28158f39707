import { build } from 'esbuild';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../test/catalog-harness';
import { asUser, newUserId } from '../../test/identity-headers';
import { seedEntries } from '../../test/seed';

const TRIALS = Number(process.env['CRASH_TRIALS'] ?? 3);
const root = path.resolve(__dirname, '../../../..');

/** Bundles test/list-writer-process.ts (workspace libs inlined, packages external) into a temp dir. */
async function bundleWriter(outdir: string): Promise<string> {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  await build({
    entryPoints: [path.join(root, 'apps/catalog-service/test/list-writer-process.ts')],
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})],
    tsconfig: path.join(root, 'apps/catalog-service/tsconfig.json'),
    logLevel: 'error',
  });
  return path.join(outdir, 'list-writer-process.js');
}

function startWriter(script: string, dbName: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { ...process.env, CATALOG_TEST_DB: dbName, NODE_PATH: path.join(root, 'node_modules') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = /^PORT (\d+)$/.exec(line);
      if (match) resolve({ child, url: `http://127.0.0.1:${match[1]}` });
    });
    child.once('exit', (code) => reject(new Error(`writer exited (${code}) before listening: ${stderr}`)));
  });
}

describe('change feed across a crash (movies)', () => {
  let h: CatalogHarness;
  let dir: string;
  let script: string;
  let items: string[];
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    items = (await seedEntries(h.module, Array.from({ length: TRIALS * 2 }, (_, i) => ({ title: `Crash Item ${i}` })))).map((doc) => doc._id.toHexString());
    dir = mkdtempSync(path.join(tmpdir(), 'list-writer-'));
    script = await bundleWriter(dir);
  }, 120_000);
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has every write acknowledged by a process that was SIGKILLed right after answering', async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const user = newUserId();
      const { child, url } = await startWriter(script, h.dbName);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        const added = await request(url).post('/api/v1/movies/list').set(asUser(user)).send({ item_id: items[trial * 2], status: 'watching' });
        expect(added.status).toBe(201);
        const changed = await request(url).patch(`/api/v1/movies/list/${items[trial * 2]}`).set(asUser(user)).send({ score: 7 });
        child.kill('SIGKILL');
        expect(changed.status).toBe(200);
      } finally {
        child.kill('SIGKILL');
        await exited;
      }
      const feed = await request(h.app).get('/api/v1/movies/list/changes').set(asUser(user));
      expect(feed.status).toBe(200);
      expect(feed.body.changes).toEqual([
        expect.objectContaining({ type: 'upsert', item_id: items[trial * 2], entry: expect.objectContaining({ status: 'watching', score: 7 }) }),
      ]);
    }
  }, 300_000);
});
