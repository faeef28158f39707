import { existsSync } from 'node:fs';
import path from 'node:path';

/** The Nx workspace root (the directory holding nx.json), searched upwards from `start`. */
export function findWorkspaceRoot(start: string = __dirname): string {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'nx.json'))) return dir;
    if (path.dirname(dir) === dir) break;
  }
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'nx.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no nx.json above ${start} or ${process.cwd()}`);
  }
}

export const APPS = ['gateway', 'auth-service', 'registry-service', 'catalog-service', 'scrobble-service'] as const;
export type AppName = (typeof APPS)[number];

/** The bundle `npm run build` writes for an app (tools/build/build-app.mjs). */
export const appEntry = (rootDir: string, app: AppName): string => path.join(rootDir, 'dist', 'apps', app, 'main.js');
