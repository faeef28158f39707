import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Settings } from './config/settings';
import type { Io } from './io';
import { DEFAULT_URL, normaliseUrl, Session } from './session';

const credential = (token: string) => ({
  token,
  token_id: 'id',
  token_name: 'mt',
  prefix: token.slice(0, 8),
  scopes: ['list:read' as const],
  expires_at: '2030-01-01T00:00:00.000Z',
  created_at: '2026-01-01T00:00:00.000Z',
  user: { id: 'u', username: 'alice' },
});

describe('Session', () => {
  let home: string;
  const io = (env: NodeJS.ProcessEnv): Io => ({
    stdin: new PassThrough() as unknown as NodeJS.ReadStream,
    stdout: new PassThrough() as unknown as NodeJS.WriteStream,
    stderr: new PassThrough() as unknown as NodeJS.WriteStream,
    env: { XDG_CONFIG_HOME: home, ...env },
  });
  beforeEach(() => (home = mkdtempSync(path.join(os.tmpdir(), 'mt-session-'))));
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('normalises server URLs to the key credentials are stored under', () => {
    expect(normaliseUrl('https://media.example.com/', 'x')).toBe('https://media.example.com');
    expect(normaliseUrl('http://127.0.0.1:8080/base/?q=1#f', 'x')).toBe('http://127.0.0.1:8080/base');
    expect(() => normaliseUrl('ftp://x', '--url')).toThrow('--url: only http and https URLs are supported');
    expect(() => normaliseUrl('https://user:pw@x', 'MT_URL')).toThrow('MT_URL: a URL must not carry credentials');
    expect(() => normaliseUrl('localhost:8080', 'MT_URL')).toThrow('MT_URL: only http and https');
  });

  it('picks the server from --url, else MT_URL, else the last login, else the default', () => {
    expect(new Session(io({}), { color: false }).url).toBe(DEFAULT_URL);
    new Settings({ XDG_CONFIG_HOME: home }).setDefaultUrl('https://last.example.com');
    expect(new Session(io({}), { color: false }).url).toBe('https://last.example.com');
    expect(new Session(io({ MT_URL: 'https://env.example.com' }), { color: false }).url).toBe('https://env.example.com');
    expect(new Session(io({ MT_URL: 'https://env.example.com' }), { url: 'https://flag.example.com', color: false }).url).toBe('https://flag.example.com');
  });

  it('sends a stored token only to the server it was created on; MT_TOKEN wins over it', () => {
    new Settings({ XDG_CONFIG_HOME: home }).saveCredential('https://a.example.com', credential('mtp_aaaaaaaa'));
    expect(new Session(io({}), { url: 'https://a.example.com', color: false }).token()).toBe('mtp_aaaaaaaa');
    expect(new Session(io({}), { url: 'https://b.example.com', color: false }).token()).toBeUndefined();
    const withEnv = new Session(io({ MT_TOKEN: 'mtp_envtoken' }), { url: 'https://a.example.com', color: false });
    expect(withEnv.token()).toBe('mtp_envtoken');
    expect(withEnv.storedCredential()).toBeUndefined();
  });

  it('refuses a --max-wait that is not a number of seconds', () => {
    expect(() => new Session(io({}), { maxWait: '1.5', color: false })).toThrow('--max-wait / MT_MAX_WAIT must be a whole number of seconds');
    expect(new Session(io({ MT_MAX_WAIT: '5' }), { color: false }).maxWaitSeconds).toBe(5);
  });
});
