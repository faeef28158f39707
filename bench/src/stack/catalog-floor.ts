/**
 * The catalog service's floor (issue 42): the thinnest service the catalog's own building blocks allow —
 * express (with the app prototypes every service runs), a mongoose connection used through its native
 * collections as the service uses it, the request context in AsyncLocalStorage, the gateway's signed identity
 * checked — answering three of the catalog's requests with the same statements, projections, sort orders
 * and JSON out as the real service:
 *   GET   /api/v1/movies?limit=20          counter shards, then (when their version moved) one sorted page of entries
 *   GET   /api/v1/movies/list              the owner's counters, then one sorted page of the list
 *   PATCH /api/v1/movies/list/{item_id}    one transaction: the owner's seq, the entry, the entry at its
 *                                          revision (history pushed), the owner's counters; the entry out
 * No validation library, no error payloads, no logging or metrics, no layers: only what answering needs.
 * Started by the bench as `node dist/bench/catalog-floor.js --port=… --mongo=… --db=… --secret=…
 * [--sorting]` (`--sorting`: the server sorts every match, so sorted reads are narrowed by a key range
 * and list reads keep the history, as the service's store profile does there).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import express, { type Request, type Response } from 'express';
import mongoose, { mongo } from 'mongoose';
import { MOVIES } from '@mt/domain';
import { appPrototypes } from '@mt/http';
import { verifyIdentity } from '@mt/identity';
import { CursorCodec, nextCursor } from '@mt/pagination';
import { required } from '../required';

type Doc = mongo.Document;

const COUNTER_SHARDS = Array.from({ length: 32 }, (_, shard) => (shard === 0 ? 'entries' : `entries:${shard}`));
const LISTING_PROJECTION = { title_words: 0, title_prefixes: 0, genre_keys: 0, person_prefixes: 0, external_keys: 0, list_claims: 0 };
const LIST_PROJECTION_WITHOUT_HISTORY = { history: 0 };
const OWN_FIELDS = Object.entries(MOVIES.fields).map(([name, field]) => ({ name, empty: field.kind === ('list' as string) ? [] : null }));

function arg(name: string): string {
  return required(process.argv.find((value) => value.startsWith(`--${name}=`)), `--${name}`).slice(name.length + 3);
}

async function main(): Promise<void> {
  const sorting = process.argv.includes('--sorting');
  const secret = arg('secret');
  const connection = await mongoose
    .createConnection(arg('mongo'), { dbName: arg('db'), maxPoolSize: 20, bufferCommands: false, autoIndex: false, autoCreate: false })
    .asPromise();
  const db = required(connection.db, 'database');
  const entries = db.collection<Doc>('entries');
  const counters = db.collection<Doc>('counters');
  const lists = db.collection<Doc>('list_entries');
  const owners = db.collection<Doc>('list_owners');
  const cursors = new CursorCodec({ secret });
  const context = new AsyncLocalStorage<{ id: string }>();
  const listProjection = sorting ? undefined : LIST_PROJECTION_WITHOUT_HISTORY;

  // Where the server sorts every match, the service narrows sorted reads to a range of the sort key that
  // holds the page (range hints from a sample); here the bound is read once at start, with the same margin.
  const catalogBound = sorting ? (await entries.find({}, { projection: { title_key: 1 } }).sort({ title_key: 1, _id: 1 }).skip(200).limit(1).next())?.['title_key'] : undefined;
  const listBounds = new Map<string, Date | undefined>();
  const listBound = async (userId: string) => {
    if (!sorting) return undefined;
    if (!listBounds.has(userId)) {
      const row = await lists.find({ user_id: userId }, { projection: { updated_at: 1 } }).sort({ updated_at: -1, _id: -1 }).skip(200).limit(1).next();
      listBounds.set(userId, row?.['updated_at']);
    }
    return listBounds.get(userId);
  };

  const caller = (req: Request): string | undefined => {
    const check = verifyIdentity(req.headers, String(req.headers['x-request-id'] ?? ''), secret);
    return check.ok ? check.identity.userId : undefined;
  };

  const entryResponse = (doc: Doc) => {
    const own = (doc['own'] ?? {}) as Record<string, unknown>;
    const response: Record<string, unknown> = {
      id: (doc['_id'] as mongo.ObjectId).toHexString(),
      title: doc['title'],
      year: doc['year'],
      description: doc['description'],
      genres: doc['genres'],
      external_ids: doc['external_ids'] ?? {},
      created_by: doc['created_by'],
      created_at: (doc['created_at'] as Date).toISOString(),
      updated_at: (doc['updated_at'] as Date).toISOString(),
    };
    for (const field of OWN_FIELDS) response[field.name] = own[field.name] ?? field.empty;
    return response;
  };

  const listEntryResponse = (doc: Doc) => {
    const id = (doc['item_id'] as mongo.ObjectId).toHexString();
    return {
      item_id: id,
      item: { id, title: doc['item_title'], year: doc['item_year'] ?? null },
      status: doc['status'],
      score: doc['score'],
      progress: doc['progress'],
      notes: doc['notes'],
      started_at: doc['started_at'],
      finished_at: doc['finished_at'],
      repeat_count: doc['repeat_count'] ?? 0,
      created_at: (doc['created_at'] as Date).toISOString(),
      updated_at: (doc['updated_at'] as Date).toISOString(),
    };
  };

  const page = (data: unknown[], limit: number, total: number, next: string | null) => ({
    data,
    page: 1,
    limit,
    total,
    total_pages: Math.ceil(total / limit),
    next_cursor: next,
  });

  const limitOf = (req: Request): number | undefined => {
    const limit = req.query['limit'] === undefined ? 20 : Number(req.query['limit']);
    return Number.isInteger(limit) && limit >= 1 && limit <= 100 ? limit : undefined;
  };

  // A write conflict (a write through another instance) runs the transaction again, as the service's runner does.
  const retryTransient = async <T>(work: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (attempt >= 5 || !(error as { hasErrorLabel?: (label: string) => boolean }).hasErrorLabel?.('TransientTransactionError')) throw error;
      }
    }
  };

  const app = express();
  // As every service's app: no ETag (a hash of every body).
  app.set('etag', false);
  app.use((req, res, next) => {
    const id = String(req.headers['x-request-id'] ?? randomUUID());
    res.setHeader('x-request-id', id);
    context.run({ id }, next);
  });
  app.use(express.json({ limit: '1mb' }));

  const cachedPages = new Map<number, { version: number; rows: Doc[] }>();
  app.get('/api/v1/movies', async (req: Request, res: Response) => {
    const limit = limitOf(req);
    if (limit === undefined) return void res.status(400).json({ error: { code: 'VALIDATION_ERROR' } });
    const shards = await counters.find({ _id: { $in: COUNTER_SHARDS } } as Doc).toArray();
    const total = shards.reduce((sum, shard) => sum + ((shard['count'] as number | undefined) ?? 0), 0);
    const version = shards.reduce((sum, shard) => sum + ((shard['version'] as number | undefined) ?? 0), 0);
    // As the service: the page is read again only when the catalog's version moved.
    const kept = cachedPages.get(limit);
    let rows = kept?.version === version ? kept.rows : undefined;
    if (!rows) {
      const filter = catalogBound === undefined ? {} : { title_key: { $lte: catalogBound } };
      rows = await entries.find(filter, { projection: LISTING_PROJECTION }).sort({ title_key: 1, _id: 1 }).limit(limit).toArray();
      cachedPages.set(limit, { version, rows });
    }
    const last = rows[rows.length - 1];
    const position = last ? { s: 0, k: last['title_key'] as string, i: (last['_id'] as mongo.ObjectId).toHexString(), n: rows.length } : undefined;
    const next = nextCursor(cursors, { ...req.query }, { snapshotAt: Date.now() }, position, rows.length < total);
    res.json(page(rows.map(entryResponse), limit, total, next));
  });

  app.get('/api/v1/movies/list', async (req: Request, res: Response) => {
    const userId = caller(req);
    if (!userId) return void res.status(401).json({ error: { code: 'UNAUTHORIZED' } });
    const limit = limitOf(req);
    if (limit === undefined) return void res.status(400).json({ error: { code: 'VALIDATION_ERROR' } });
    const owner = await owners.findOne({ _id: userId } as Doc, { projection: { stats: 1 } });
    const total = ((owner?.['stats'] as { total?: number } | undefined)?.total ?? 0) as number;
    const bound = await listBound(userId);
    const filter = bound === undefined ? { user_id: userId } : { user_id: userId, updated_at: { $gte: bound } };
    const rows = await lists.find(filter, { projection: listProjection }).sort({ updated_at: -1, _id: -1 }).limit(limit).toArray();
    const last = rows[rows.length - 1];
    const position = last ? { k: (last['updated_at'] as Date).toISOString(), i: (last['_id'] as mongo.ObjectId).toHexString(), n: rows.length } : undefined;
    const next = nextCursor(cursors, { owner: userId, sort: 'updated_at', order: 'desc' }, { snapshotAt: Date.now() }, position, rows.length < total);
    res.json(page(rows.map(listEntryResponse), limit, total, next));
  });

  // One user's writes take turns, as in the service (they would conflict on the owner document anyway).
  const writing = new Map<string, Promise<unknown>>();
  const inTurn = <T>(userId: string, work: () => Promise<T>): Promise<T> => {
    const run = (writing.get(userId) ?? Promise.resolve()).then(work, work);
    const settled = run.catch(() => undefined);
    writing.set(userId, settled);
    void settled.then(() => {
      if (writing.get(userId) === settled) writing.delete(userId);
    });
    return run;
  };

  app.patch('/api/v1/movies/list/:itemId', async (req: Request, res: Response) => {
    const userId = caller(req);
    if (!userId) return void res.status(401).json({ error: { code: 'UNAUTHORIZED' } });
    const score = (req.body as { score?: unknown }).score;
    const itemId = String(req.params['itemId']);
    if (!mongo.ObjectId.isValid(itemId) || !(score === null || (Number.isInteger(score) && (score as number) >= 1 && (score as number) <= 10)))
      return void res.status(400).json({ error: { code: 'VALIDATION_ERROR' } });
    const written = await inTurn(userId, () => retryTransient(async () => {
      const session = connection.getClient().startSession();
      try {
        session.startTransaction();
        const owner = await owners.findOneAndUpdate({ _id: userId, deleted_at: null } as Doc, { $inc: { seq: 1 } }, { session, returnDocument: 'after', projection: { seq: 1 } });
        const item = new mongo.ObjectId(itemId);
        const current = await lists.findOne({ user_id: userId, item_id: item }, { session, projection: listProjection });
        if (!owner || !current) {
          await session.abortTransaction();
          return null;
        }
        const now = new Date();
        const events = current['score'] === score ? [] : [{ at: now, field: 'score', from: current['score'], to: score }];
        const set = { started_at: current['started_at'], finished_at: current['finished_at'], updated_at: now, seq: owner['seq'], score, score_missing: score === null ? 1 : 0 };
        const update: mongo.UpdateFilter<Doc> = events.length ? { $set: set, $inc: { rev: 1 }, $push: { history: { $each: events, $position: 0, $slice: 1000 } } as Doc } : { $set: set, $inc: { rev: 1 } };
        const doc = await lists.findOneAndUpdate({ user_id: userId, item_id: item, rev: current['rev'] }, update, { returnDocument: 'after', projection: listProjection, session });
        if (doc && events.length) {
          const inc: Record<string, number> = {};
          if (current['score'] !== null) inc[`stats.score.${current['score']}`] = -1;
          if (score !== null) inc[`stats.score.${score}`] = 1;
          await owners.updateOne({ _id: userId } as Doc, { $inc: inc }, { session });
        }
        await session.commitTransaction();
        return doc;
      } finally {
        await session.endSession();
      }
    }));
    if (!written) return void res.status(404).json({ error: { code: 'NOT_FOUND' } });
    res.json(listEntryResponse(written));
  });

  http.createServer({ ...appPrototypes(app), keepAliveTimeout: 65_000 }, app).listen(Number(arg('port')), '127.0.0.1');
}

// The bench ends the floor with SIGINT: exiting normally writes its CPU profile when it runs with --cpu-prof.
process.on('SIGINT', () => process.exit(0));

main().catch((error: unknown) => {
  process.stderr.write(`catalog floor failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
