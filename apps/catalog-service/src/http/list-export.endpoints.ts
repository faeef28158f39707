import { csvHeader, EXPORT_FORMAT, PLAYS_CSV_HEADER, type Category } from '@mt/importers';
import { z } from '@mt/contracts';
import { defineEndpoint, scope, STREAMED, type Endpoint } from '@mt/endpoints';
import { pipeline } from 'node:stream/promises';
import type { CategoryDefinition } from '../domain/categories';
import { exportFileSchema, ExportQuery } from '../features/list-export/list-export.schemas';
import type { ListExportService } from '../features/list-export/list-export.service';

const DISPOSITION = {
  description: '`attachment; filename="<category>-list-<YYYY-MM-DD>.<json|csv>"`',
  schema: { type: 'string' as const },
};

/** The export of the caller's list. Declared before /list/{item_id}. */
export function listExportEndpoints(category: CategoryDefinition, service: ListExportService, tag: string): Endpoint[] {
  const header = csvHeader(category.id as Category).join(',');
  return [
    defineEndpoint({
      name: 'export list',
      method: 'GET',
      path: '/list/export',
      access: scope('list:read'),
      tags: [tag],
      summary: 'Download your whole list (JSON or CSV)',
      description: [
        'Streams every entry of your list, oldest first, with its full catalog entry (external ids included), as a download.',
        `JSON: \`{"format":"${EXPORT_FORMAT}","category":"${category.id}","exported_at":…,"entries":[{"item":{…catalog entry…},"status","score","progress","notes","started_at","finished_at","created_at","updated_at","plays":[{"season","number","watched_at","precision","cycle","source"}]}]}\`, one entry per line.`,
        `CSV (RFC 4180, UTF-8 without BOM, CRLF): the header \`${header}\`; lists (genres, authors) as \`a; b\` (\`;\` and \`\\\\\` inside a value escaped with \`\\\\\`); cells holding \`;\` are quoted too, and text that could start a formula for a reader set to \`,\` or \`;\` (\`=\`, \`+\`, \`-\`, \`@\`, full-width or after spaces, a tab, a CR; at the start, after a \`;\` or a line break) gets a \`'\` there (spreadsheet formula injection; see docs/api.md); null is an empty cell.`,
        `\`format=csv&rows=plays\`: one row per play, header \`${PLAYS_CSV_HEADER.join(',')}\` (\`watched_at\` empty exactly when \`precision\` is \`unknown\`).`,
        'All are read back by the import (`source=media-tracker` / `source=csv`, plays included). The list is read as the response is written: memory does not grow with its size.',
      ].join('\n\n'),
      query: ExportQuery,
      responses: {
        200: {
          description: 'The list as a file (`application/json` or `text/csv`)',
          content: { 'application/json': exportFileSchema(category), 'text/csv': z.string().openapi({ description: `Header: ${header}` }) },
          headers: { 'Content-Disposition': DISPOSITION },
        },
      },
      async handle({ query, caller, res }) {
        const file = service.export(caller.userId, query.format ?? 'json', query.rows);
        res.status(200);
        res.setHeader('Content-Type', file.contentType);
        res.setHeader('Content-Disposition', `attachment; filename="${file.fileName}"`);
        res.setHeader('Cache-Control', 'no-store');
        // pipeline: the list is pulled only as fast as the client reads (backpressure); an error after the
        // headers were sent reaches the error middleware, which ends the connection.
        await pipeline(file.stream, res);
        return STREAMED;
      },
    }),
  ];
}
