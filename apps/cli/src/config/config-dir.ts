import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `$XDG_CONFIG_HOME/media-tracker`, else `~/.config/media-tracker` (the XDG base directory default). */
export function configDir(env: NodeJS.ProcessEnv): string {
  const base = env['XDG_CONFIG_HOME'] && path.isAbsolute(env['XDG_CONFIG_HOME']) ? env['XDG_CONFIG_HOME'] : path.join(os.homedir(), '.config');
  return path.join(base, 'media-tracker');
}

/** A JSON file of the config directory, or undefined when there is none. A file mangled by hand is an error. */
export function readJsonFile<T>(file: string): T | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`${file} is not valid JSON: fix or delete it`);
  }
}

/** True when group or others may read or write the file (it should be 0600). */
export function isExposed(file: string): boolean {
  return existsSync(file) && (statSync(file).mode & 0o077) !== 0;
}

/**
 * Writes a file readable by its owner only (0600) in a directory only its owner may enter (0700). The data goes
 * to a temporary file created with that mode, then replaces the file in one rename: a crash leaves the old
 * file or the new one, never half of one, and never a copy readable by others.
 */
export function writePrivateFile(file: string, content: string): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
    chmodSync(file, 0o600);
  } finally {
    rmSync(temporary, { force: true });
  }
}

const LOCK_STALE_MS = 10_000;
const LOCK_TIMEOUT_MS = 15_000;
const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Runs a read-modify-write of the directory's files while holding its lock file (created exclusively), so
 * two `mt` processes at once (two logins, a revoke and a login) never lose each other's changes. A lock older
 * than 10 s was left by a crashed process and is taken over.
 */
export function withDirLock<T>(dir: string, change: () => T): T {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lock = path.join(dir, '.lock');
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const age = lockAge(lock);
    if (age !== undefined && age > LOCK_STALE_MS) rmSync(lock, { force: true });
    else if (Date.now() > deadline) throw new Error(`${lock} is held by another mt; delete it if no mt is running`);
    else sleepSync(5 + Math.random() * 10);
  }
  try {
    return change();
  } finally {
    rmSync(lock, { force: true });
  }
}

function lockAge(lock: string): number | undefined {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return undefined; // released meanwhile
  }
}
