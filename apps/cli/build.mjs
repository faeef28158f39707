// Builds `mt` into dist/apps/cli/ as an installable npm package: main.js (esbuild bundle of the CLI and the
// workspace libs, with a shebang), package.json (bin `mt`, the runtime dependencies the bundle imports, with the
// workspace's version ranges), README.md. `npm pack dist/apps/cli` then makes the tarball. Run from the root.
import { build } from 'esbuild';
import { builtinModules } from 'node:module';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = JSON.parse(readFileSync('package.json', 'utf8'));
const outdir = path.join('dist', 'apps', 'cli');
const external = [...Object.keys(root.dependencies ?? {}), ...Object.keys(root.devDependencies ?? {})];
mkdirSync(outdir, { recursive: true });

const result = await build({
  entryPoints: ['apps/cli/src/main.ts'],
  outfile: path.join(outdir, 'main.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  external,
  banner: { js: '#!/usr/bin/env node' },
  define: { MT_CLI_VERSION: JSON.stringify(root.version) },
  tsconfig: 'apps/cli/tsconfig.json',
  metafile: true,
  logLevel: 'warning',
});
chmodSync(path.join(outdir, 'main.js'), 0o755);

// The packages the bundle still imports at run time: each must be a runtime dependency of the workspace.
const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const imported = new Set(
  Object.values(result.metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((entry) => entry.external && !builtins.has(entry.path))
    .map((entry) => packageOf(entry.path)),
);
const missing = [...imported].filter((name) => !root.dependencies?.[name]);
if (missing.length) {
  console.error(`apps/cli imports ${missing.join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not in the dependencies of package.json`);
  process.exit(1);
}
const dependencies = Object.fromEntries([...imported].sort().map((name) => [name, root.dependencies[name]]));

const manifest = {
  name: 'media-tracker-cli',
  version: root.version,
  description: 'mt: the command-line client of the media tracker API',
  license: root.license,
  bin: { mt: 'main.js' },
  main: 'main.js',
  files: ['main.js', 'main.js.map', 'README.md'],
  engines: root.engines,
  dependencies,
};
writeFileSync(path.join(outdir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
copyFileSync('apps/cli/README.md', path.join(outdir, 'README.md'));
