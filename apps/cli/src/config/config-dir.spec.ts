import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configDir, isExposed, writePrivateFile } from './config-dir';

describe('the config directory', () => {
  let home: string;
  beforeEach(() => (home = mkdtempSync(path.join(os.tmpdir(), 'mt-config-'))));
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('is $XDG_CONFIG_HOME/media-tracker, else ~/.config/media-tracker (a relative XDG_CONFIG_HOME is ignored)', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/x/conf' })).toBe('/x/conf/media-tracker');
    expect(configDir({ XDG_CONFIG_HOME: 'relative' })).toBe(path.join(os.homedir(), '.config', 'media-tracker'));
    expect(configDir({})).toBe(path.join(os.homedir(), '.config', 'media-tracker'));
  });

  it('writes files 0600 in a 0700 directory, replacing the old content whole and leaving no temporary file', () => {
    const file = path.join(home, 'media-tracker', 'credentials.json');
    writePrivateFile(file, '{"a":1}');
    writePrivateFile(file, '{"a":2}');
    expect(readFileSync(file, 'utf8')).toBe('{"a":2}');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(readdirSync(path.dirname(file))).toEqual(['credentials.json']);
  });

  it('tightens a file that others could read when it is written again, and tells when it is exposed', () => {
    const file = path.join(home, 'credentials.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0o644);
    expect(isExposed(file)).toBe(true);
    writePrivateFile(file, '{}');
    expect(isExposed(file)).toBe(false);
  });
});
