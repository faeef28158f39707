import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository root (tests run from anywhere). */
export const REPO_ROOT = path.resolve(__dirname, '../../..');

export const repoPath = (...segments: string[]): string => path.join(REPO_ROOT, ...segments);
export const readRepoFile = (...segments: string[]): string => readFileSync(repoPath(...segments), 'utf8');
export const repoFileExists = (...segments: string[]): boolean => existsSync(repoPath(...segments));

/** The release (package.json `version`): the default IMAGE_TAG of compose and the tag kustomize deploys. */
export const PACKAGE_VERSION = (JSON.parse(readRepoFile('package.json')) as { version: string }).version;

/** The deployable apps, their default port and the name of their config schema export. */
export const APPS = [
  { app: 'gateway', port: 8080 },
  { app: 'auth-service', port: 3001 },
  { app: 'registry-service', port: 3002 },
  { app: 'catalog-service', port: 3011 },
  { app: 'scrobble-service', port: 3020 },
] as const;
export type AppName = (typeof APPS)[number]['app'];

/** Every target of the root Dockerfile: the apps, and the all-in-one host of them all (gateway's port). */
export const IMAGES = [...APPS, { app: 'all-in-one', port: 8080 }] as const;

/** The catalog categories shipped by default and the port each listens on (the service map). */
export const CATEGORIES = [
  { category: 'movies', port: 3011 },
  { category: 'tvshows', port: 3012 },
  { category: 'books', port: 3013 },
] as const;

/** A binary on PATH, or undefined: optional tools (docker-compose, kubectl) are skipped when absent. */
export function findBinary(name: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}
