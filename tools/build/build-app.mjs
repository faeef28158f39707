// Bundles one project's entry points with esbuild into dist/<projectRoot>/ (dependencies stay external,
// workspace libs are inlined through the tsconfig path aliases). Usage: build-app.mjs <projectRoot> [entry...]
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const [projectRoot, ...entries] = process.argv.slice(2);
if (!projectRoot) {
  console.error('usage: build-app.mjs <projectRoot> [entry.ts ...]');
  process.exit(2);
}
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const external = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
const entryPoints = (entries.length ? entries : ['src/main.ts']).map((e) => path.join(projectRoot, e));

await build({
  entryPoints,
  outdir: path.join('dist', projectRoot),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  external,
  tsconfig: path.join(projectRoot, 'tsconfig.json'),
  logLevel: 'warning',
});
