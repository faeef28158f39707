import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findOnPath, freePort } from '@mt/stack';
import { HttpClient } from '../load/http-client';

export interface Nginx {
  url: string;
  pid: number;
  version: string;
  stop(): Promise<void>;
}

/** Debian's nginx, wherever it is (it lives in /usr/sbin, which is not on every user's PATH). */
export function findNginx(): string | undefined {
  return (
    findOnPath('nginx') ??
    ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'].find((file) =>
      existsSync(file),
    )
  );
}

/**
 * nginx, installed first when absent (`apt-get install -y nginx`, as .ci/run installs Redis), so the
 * comparison is never skipped on a fresh machine. Undefined (with the reason) only when installing failed.
 */
export function ensureNginx(log: (text: string) => void): { binary: string } | { missing: string } {
  const found = findNginx();
  if (found) return { binary: found };
  log('  nginx not found: apt-get install -y nginx');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args: string[]) => spawnSync('apt-get', args, { env, encoding: 'utf8', timeout: 300_000 });
  run(['update', '-qq']);
  const install = run(['install', '-y', '-qq', '--no-install-recommends', 'nginx']);
  const installed = findNginx();
  if (installed) return { binary: installed };
  const why = install.error?.message ?? (install.stderr || install.stdout || '').trim().split('\n').slice(-2).join(' ');
  return { missing: `nginx absent and apt-get install -y nginx failed (${why || `exit ${install.status}`})` };
}

/** nginx's version, or why the comparison has no nginx row. */
export type NginxInfo = { version: string } | { skipped: string };

/**
 * nginx for a comparison row, installed first when absent: `start` launches it from the binary. Never
 * throws: without nginx the row is skipped, with the reason (logged too).
 */
export async function comparisonNginx(
  log: (text: string) => void,
  start: (binary: string) => Promise<Nginx>,
): Promise<{ nginx?: Nginx; info: NginxInfo }> {
  const found = ensureNginx(log);
  const skipped = (reason: string) => {
    log(`  ${reason}`);
    return { info: { skipped: reason } };
  };
  if ('missing' in found) return skipped(`${found.missing}: the nginx row is skipped`);
  try {
    const nginx = await start(found.binary);
    return { nginx, info: { version: nginx.version } };
  } catch (error) {
    return skipped(`nginx did not start: ${(error as Error).message}`);
  }
}

/** What the nginx of a comparison does: proxy to an upstream, or serve a directory's files. */
type NginxSite = { upstreamPort: number } | { root: string };

function siteConfig(listenPort: number, site: NginxSite): string {
  if ('root' in site)
    return `
  sendfile on;
  tcp_nopush on;
  server {
    listen 127.0.0.1:${listenPort};
    location / {
      root ${site.root};
      add_header Cache-Control "public, max-age=31536000, immutable";
    }
  }`;
  return `
  upstream catalog {
    server 127.0.0.1:${site.upstreamPort};
    keepalive 64;
    keepalive_requests 100000;
  }
  server {
    listen 127.0.0.1:${listenPort};
    location / {
      proxy_pass http://catalog;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }`;
}

/**
 * nginx as an operator would put it in front of a Node service, or serving static files: one worker (the
 * gateway is one Node process too), no access log (the services run at LOG_LEVEL=warn in the benchmark),
 * HTTP/1.1 to an upstream with a keep-alive pool, sendfile for files. Everything lives in a temporary prefix.
 */
function nginxConfig(prefix: string, listenPort: number, site: NginxSite): string {
  const runsAsRoot = process.getuid?.() === 0;
  return `
${runsAsRoot ? 'user root;' : ''}
worker_processes 1;
daemon off;
master_process on;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  keepalive_requests 100000;${siteConfig(listenPort, site)}
}
`;
}

/** Starts nginx in front of `upstreamPort`; resolves once it answers GET `probePath` with 200. */
export function startNginx(binary: string, upstreamPort: number, probePath: string): Promise<Nginx> {
  return launchNginx(binary, { upstreamPort }, probePath);
}

/** Starts nginx serving the files under `root`; resolves once it answers GET `probePath` with 200. */
export function startStaticNginx(binary: string, root: string, probePath: string): Promise<Nginx> {
  return launchNginx(binary, { root }, probePath);
}

async function launchNginx(binary: string, site: NginxSite, probePath: string): Promise<Nginx> {
  const prefix = mkdtempSync(path.join(tmpdir(), 'mt-bench-nginx-'));
  for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'logs'])
    mkdirSync(path.join(prefix, dir));
  const port = await freePort();
  const configFile = path.join(prefix, 'nginx.conf');
  writeFileSync(configFile, nginxConfig(prefix, port, site));
  const versionOutput = await new Promise<string>((resolve) => {
    const probe = spawn(binary, ['-v'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    probe.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    probe.on('close', () => resolve(text.trim()));
    probe.on('error', () => resolve('unknown'));
  });
  // -e: the error log before the configuration is read (the default /var/log/nginx may not be writable).
  const child: ChildProcess = spawn(
    binary,
    ['-p', prefix, '-c', configFile, '-e', path.join(prefix, 'error.log')],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(prefix, { recursive: true, force: true });
  };
  const client = new HttpClient(1);
  try {
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`nginx exited with code ${child.exitCode}: ${stderr.trim() || readLog(prefix)}`);
      const answer = await client.send(`${url}${probePath}`, { timeoutMs: 2000 }).catch(() => undefined);
      if (answer?.status === 200) break;
      if (Date.now() > deadline)
        throw new Error(`nginx did not answer 200 on ${probePath} within 10 s: ${readLog(prefix)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.close();
  }
  return { url, pid: child.pid ?? -1, version: versionOutput.replace(/^nginx version:\s*/, ''), stop };
}

function readLog(prefix: string): string {
  try {
    return readFileSync(path.join(prefix, 'error.log'), 'utf8').trim().split('\n').slice(-5).join(' | ');
  } catch {
    return '(no error log)';
  }
}
