import { build } from 'esbuild';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { readRepoFile, REPO_ROOT } from './repo';

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const packageName = (specifier: string) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];

const esbuildOptions = (app: string) => {
  const pkg = JSON.parse(readRepoFile('package.json')) as PackageJson;
  const projectRoot = path.join(REPO_ROOT, 'apps', app);
  return {
    entryPoints: [path.join(projectRoot, 'src', 'main.ts')],
    absWorkingDir: REPO_ROOT,
    bundle: true,
    platform: 'node' as const,
    target: 'node20',
    format: 'cjs' as const,
    external: [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})],
    tsconfig: path.join(projectRoot, 'tsconfig.json'),
    logLevel: 'silent' as const,
  };
};

/**
 * The npm packages an app's bundle loads at run time, bundled in memory exactly like
 * tools/build/build-app.mjs does (every package external, workspace libs inlined).
 */
export async function externalPackagesOf(app: string): Promise<string[]> {
  const result = await build({
    ...esbuildOptions(app),
    outdir: path.join(REPO_ROOT, 'tmp', 'deploy-checks', app),
    write: false,
    metafile: true,
  });
  const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports);
  return [
    ...new Set(imports.filter((i) => i.external && !builtins.has(i.path)).map((i) => packageName(i.path))),
  ].sort();
}

/** Writes `<outdir>/main.js` (+ source map) as the image's build stage does. */
export async function bundleApp(app: string, outdir: string): Promise<string> {
  await build({ ...esbuildOptions(app), outdir, sourcemap: true });
  return path.join(outdir, 'main.js');
}

export function productionDependencies(): string[] {
  return Object.keys((JSON.parse(readRepoFile('package.json')) as PackageJson).dependencies ?? {});
}
