/**
 * The image route's floor (issue 39): the poster answered from memory by the thinnest servers the gateway's
 * building blocks allow, with the headers the gateway's image route sends, so the images row can say how much
 * of the gap to nginx is Node's and how much the gateway's:
 *   node http                        http.createServer, one handler, res.end(bytes)
 *   express, prototypes + ALS        an express app as every service runs it (app prototypes, the request
 *                                    context in AsyncLocalStorage), one middleware answering
 * Started by the bench as `node dist/bench/image-floor.js --port=… --file=… --server=node|express`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import express from 'express';
import { appPrototypes } from '@mt/http';
import { required } from '../required';

export const IMAGE_FLOORS = {
  'node http': 'node',
  'express, prototypes + ALS': 'express',
} as const;
export type ImageFloorName = keyof typeof IMAGE_FLOORS;

function arg(name: string): string {
  return required(process.argv.find((value) => value.startsWith(`--${name}=`)), `--${name}`).slice(name.length + 3);
}

function main(): void {
  const body = readFileSync(arg('file'));
  const headers = {
    'Cache-Control': 'public, max-age=31536000, immutable',
    ETag: `"${createHash('sha256').update(body).digest('hex')}"`,
    'Content-Security-Policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox",
    'X-Content-Type-Options': 'nosniff',
    'Content-Type': 'image/jpeg',
    'Content-Length': body.length,
  };
  const answer = (res: http.ServerResponse) => res.writeHead(200, headers).end(body);
  let handler: http.RequestListener;
  let options: http.ServerOptions = {};
  if (arg('server') === 'node') handler = (_req, res) => answer(res);
  else {
    const app = express();
    const context = new AsyncLocalStorage<{ id: string }>();
    app.use((_req, res) => context.run({ id: 'x' }, () => answer(res)));
    handler = app;
    options = appPrototypes(app);
  }
  http.createServer({ ...options, keepAliveTimeout: 65_000 }, handler).listen(Number(arg('port')), '127.0.0.1');
}

if (/image-floor\.js$/.test(process.argv[1] ?? '')) main();
