import { parseImport, type Category, type ImportRow } from '@mt/importers';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import request from 'supertest';
import type { Express } from 'express';
import { eventually } from './eventually';
import { asUser } from './identity-headers';

const FIXTURES = path.resolve(__dirname, '../../../libs/catalog/importers/fixtures');

/** A hand-made fixture of @mt/importers (files shaped like each service's export). */
export const fixture = (name: string): Buffer => readFileSync(path.join(FIXTURES, name));

export interface ImportRequest {
  category: Category;
  source: string;
  body: Buffer | string;
  mode?: 'skip_existing' | 'overwrite';
  dryRun?: boolean;
  file?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export function postImport(app: Express | string, user: string, req: ImportRequest) {
  const query = new URLSearchParams({ source: req.source });
  if (req.mode) query.set('mode', req.mode);
  if (req.dryRun) query.set('dry_run', 'true');
  if (req.file) query.set('file', req.file);
  const contentType = req.contentType ?? (req.source === 'media-tracker' || req.source === 'trakt' ? 'application/json' : 'text/csv');
  return request(app)
    .post(`/api/v1/${req.category}/list/imports?${query}`)
    .set(req.headers ?? asUser(user))
    .set('Content-Type', contentType)
    // A string, not a Buffer: superagent would serialise a Buffer as JSON for application/json.
    .send(Buffer.isBuffer(req.body) ? req.body.toString('utf8') : req.body);
}

export interface JobBody {
  id: string;
  status: string;
  counts: Record<string, number>;
  errors: Array<{ row: number; message: string }>;
  failure: string | null;
  [key: string]: unknown;
}

/** Polls the job until it is finished; returns its last state. */
export async function finishedJob(app: Express | string, category: string, user: string, id: string, timeoutMs = 60_000): Promise<JobBody> {
  let job: JobBody | undefined;
  await eventually(
    async () => {
      const res = await request(app).get(`/api/v1/${category}/list/imports/${id}`).set(asUser(user));
      if (res.status !== 200) throw new Error(`GET job: ${res.status}`);
      job = res.body;
      if (job!.status !== 'completed' && job!.status !== 'failed') throw new Error(`still ${job!.status}`);
    },
    timeoutMs,
    100,
  );
  return job!;
}

/** Imports and waits for the job to finish. */
export async function importAndWait(app: Express | string, user: string, req: ImportRequest, timeoutMs = 60_000): Promise<JobBody> {
  const res = await postImport(app, user, req);
  if (res.status !== 202) throw new Error(`import answered ${res.status}: ${JSON.stringify(res.body)}`);
  return finishedJob(app, req.category, user, res.body.id, timeoutMs);
}

/** The rows @mt/importers reads from a file (what the job is expected to process). */
export async function parsedRows(body: Buffer, category: Category, source: string, fileName?: string): Promise<ImportRow[]> {
  const rows: ImportRow[] = [];
  for await (const row of parseImport(Readable.from([body]), { source: source as never, category, fileName })) rows.push(row);
  return rows;
}

/** The caller's whole list through the API, by item title. */
export async function listByTitle(app: Express | string, category: string, user: string): Promise<Map<string, Record<string, unknown>>> {
  const res = await request(app).get(`/api/v1/${category}/list/export`).set(asUser(user));
  if (res.status !== 200) throw new Error(`export: ${res.status}`);
  return new Map((res.body.entries as Array<Record<string, unknown> & { item: { title: string } }>).map((entry) => [entry.item.title, entry]));
}

/** The body of a streamed download (an export) as text, however the server sends it. */
export const downloaded = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (body += chunk));
    res.on('end', () => done(null, body));
  });
