import { build } from 'esbuild';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

const root = path.resolve(__dirname, '../../..');

/**
 * Bundles test/list-writer-process.ts (a real catalog app; workspace libs inlined, packages external) into
 * `outdir` for crash tests, which start it as a child process and SIGKILL it.
 */
export async function bundleCatalogProcess(outdir: string): Promise<string> {
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

/** Starts the bundled catalog process on `dbName`; resolves with its URL once it listens. */
export function startCatalogProcess(script: string, dbName: string): Promise<{ child: ChildProcess; url: string }> {
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
    child.once('exit', (code) => reject(new Error(`catalog process exited (${code}) before listening: ${stderr}`)));
  });
}
