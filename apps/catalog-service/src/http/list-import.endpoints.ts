import { errors } from '@mt/errors';
import { defineEndpoint, reply, scope, type Endpoint } from '@mt/endpoints';
import { describeImportSources, IMPORT_LIMITS, IMPORT_SOURCES, formatSize, type Category } from '@mt/importers';
import type { CategoryDefinition } from '../domain/categories';
import { categoryBasePath } from '../domain/categories';
import { MAX_KEPT_ERRORS, MAX_KEPT_ROW_BYTES, MAX_ROW_MESSAGE_BYTES } from '../domain/list-import';
import { ImportJobListQuery, ImportJobPageSchema, ImportJobParams, ImportJobSchema, importStartQuery } from '../features/list-import/list-import.schemas';
import type { ImportsService } from '../features/list-import/list-import.service';

const OWN = "Each user sees only their own imports; another user's is a 404.";

/** Import jobs of the caller's list: start one, read one, list them. */
export function importEndpoints(category: CategoryDefinition, service: ImportsService, tag: string): Endpoint[] {
  const tags = [tag];
  const base = categoryBasePath(category);
  return [
    defineEndpoint({
      name: 'start list import',
      method: 'POST',
      path: '/list/imports',
      access: scope('list:write'),
      tags,
      summary: 'Import a file from another tracker (or an export of this API) into your list',
      description: [
        `The file is the raw request body (\`text/csv\` or \`application/json\`, as the source writes it), at most ${formatSize(IMPORT_LIMITS.maxBytes)} and ${IMPORT_LIMITS.maxRows.toLocaleString('en')} rows (413 otherwise, while reading). It is read through once before anything else: a file that cannot be read (not the source's format, not UTF-8, a ZIP archive, broken CSV or JSON) is a 400 and a file over a limit a 413, and no job exists then. Otherwise the answer is 202 with the job and its \`Location\`; the job runs in the background (poll \`GET …/list/imports/{id}\`).`,
        'Rows are matched to catalog entries by an external id of the row, then by folded title + year (the duplicate rule); a row that matches nothing creates the catalog entry (with its external ids) when your credential holds `catalog:write`, otherwise it fails with that reason. `mode=skip_existing` (default) leaves an entry already on your list as it is (`skipped` when it differs from the row), `mode=overwrite` replaces its fields; a row equal to the entry is `unchanged`, so importing the same file again reports every row `unchanged`. Imported dates are taken as the file gives them: an empty `finished_at` is not filled with today. `dry_run=true` reports the same counts and changes nothing.',
        `Rows that fail are listed in \`errors\` (the first ones: at most ${MAX_KEPT_ERRORS} and ${formatSize(MAX_KEPT_ROW_BYTES)} as stored, each message cut to ${MAX_ROW_MESSAGE_BYTES} bytes; \`counts.failed\` counts them all) and do not stop the others. Every applied row is a change of your list like any other (change feed, history, statistics). One import per list at a time: a second while one is queued or running is a 409. A job survives the crash or restart of the instance running it and is resumed from its last committed batch with the same counts; no row is applied twice.`,
        '### Sources',
        describeImportSources(category.id as Category),
      ].join('\n\n'),
      query: importStartQuery(category),
      rawBody: { contentTypes: ['text/csv', 'application/json'], limitBytes: IMPORT_LIMITS.maxBytes, description: 'The file, as exported by the source (CSV or JSON)' },
      responses: {
        202: {
          description: 'The import job, queued',
          schema: ImportJobSchema,
          headers: { Location: { description: 'The job: `…/list/imports/{id}`', schema: { type: 'string' } } },
        },
      },
      errors: [409],
      async handle({ query, caller, req }) {
        const mediaType = IMPORT_SOURCES[query.source as keyof typeof IMPORT_SOURCES].mediaType;
        if (!req.is(mediaType)) throw errors.unsupportedMediaType(`source '${query.source}' is sent as ${mediaType}`);
        // Not destroyed when the parser stops early: the server drains the rest and keeps the connection.
        const body = req.iterator({ destroyOnReturn: false });
        const job = await service.start(caller.userId, caller.scopes.includes('catalog:write'), query, body);
        return reply.status(202, job, { Location: `${base}/list/imports/${job.id}` });
      },
    }),
    defineEndpoint({
      name: 'list list imports',
      method: 'GET',
      path: '/list/imports',
      access: scope('list:read'),
      tags,
      summary: 'Your imports into this list, newest first',
      description: `${OWN} Offset pages (\`page\`) or cursor pages (\`cursor=start\`, then \`next_cursor\`). Finished jobs are kept 30 days.`,
      query: ImportJobListQuery,
      responses: { 200: { description: 'A page of import jobs', schema: ImportJobPageSchema } },
      async handle({ query, caller }) {
        return reply.ok(await service.page(caller.userId, query));
      },
    }),
    defineEndpoint({
      name: 'get list import',
      method: 'GET',
      path: '/list/imports/{id}',
      access: scope('list:read'),
      tags,
      summary: 'One import job: status, counts, row errors',
      description: `${OWN} Counts grow batch by batch while the job runs.`,
      params: ImportJobParams,
      responses: { 200: { description: 'The import job', schema: ImportJobSchema } },
      async handle({ params, caller }) {
        return reply.ok(await service.get(caller.userId, params.id));
      },
    }),
  ];
}
