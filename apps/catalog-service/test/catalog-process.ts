import { build } from 'esbuild';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

const root = path.resolve(__dirname, '../../..');

/** Bundles a test process entry of apps/catalog-service/test (workspace libs inlined, packages external) into `outdir`. */
export async function bundleTestProcess(entry: string, outdir: string): Promise<string> {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  await build({
    entryPoints: [path.join(root, 'apps/catalog-service/test', entry)],
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})],
    tsconfig: path.join(root, 'apps/catalog-service/tsconfig.json'),
    logLevel: 'error',
  });
  return path.join(outdir, entry.replace(/\.ts$/, '.js'));
}

/** Starts a bundled test process and resolves once it prints `PORT <n>`. */
export function startTestProcess(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { ...process.env, ...env, NODE_PATH: path.join(root, 'node_modules') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = /^PORT (\d+)$/.exec(line);
      if (match) resolve({ child, url: `http://127.0.0.1:${match[1]}`, exited });
    });
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before listening: ${stderr}`)));
  });
}

/** The catalog app of test/crash-test-process.ts, bundled for crash tests (SIGKILL mid-write). */
export function bundleCatalogProcess(outdir: string): Promise<string> {
  return bundleTestProcess('crash-test-process.ts', outdir);
}

/** Starts the bundled list-writing catalog app on `dbName`; resolves with its URL once it listens. */
export function startCatalogProcess(script: string, dbName: string): Promise<{ child: ChildProcess; url: string; exited: Promise<unknown> }> {
  return startTestProcess(script, { CATALOG_TEST_DB: dbName });
}
