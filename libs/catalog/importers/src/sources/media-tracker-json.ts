import { unreadableFile } from '../import-file-error';
import { failedRow, type ImportRow } from '../model';
import { completeRow } from '../normalise/row';
import { itemFieldRules } from '../normalise/item-fields';
import { EXPORT_FORMAT } from '../own-format/export-entry';
import { ownEntry } from '../own-format/own-entry';
import { ownPlay, type OwnPlayFields } from '../own-format/own-plays';
import { RowPlays } from '../normalise/plays';
import { readJsonRows } from '../reading/json-rows';
import type { ImportInput } from '../reading/byte-chunks';
import type { ImportSourceParser, ParseContext } from './source';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An entry's `plays` (absent in exports made before plays existed: none), or why they fail the row. */
function playsOf(value: unknown, context: ParseContext): RowPlays | string {
  const plays = new RowPlays(context.limits.maxRowPlays);
  if (value === undefined || value === null) return plays;
  if (!Array.isArray(value)) return 'plays must be an array';
  for (const [index, element] of value.entries()) {
    const play = isObject(element)
      ? ownPlay(element as unknown as OwnPlayFields)
      : 'a play must be an object';
    if (typeof play === 'string') return `plays[${index}]: ${play}`;
    plays.add(play);
  }
  return plays;
}

function rowOf(row: number, element: unknown, context: ParseContext): ImportRow {
  if (!isObject(element) || !isObject(element['item']))
    return failedRow(row, 'an entry must be an object with an item');
  const item = element['item'];
  const entry = ownEntry(element as unknown as Parameters<typeof ownEntry>[0]);
  if (typeof entry === 'string') return failedRow(row, entry);
  const plays = playsOf(element['plays'], context);
  if (typeof plays === 'string') return failedRow(row, plays);
  const fields: Record<string, unknown> = {};
  for (const [field] of itemFieldRules(context.category)) if (field in item) fields[field] = item[field];
  const externalIds = isObject(item['external_ids']) ? item['external_ids'] : {};
  return completeRow(
    row,
    context.category,
    {
      title: typeof item['title'] === 'string' ? item['title'] : null,
      year: item['year'] as number | null | undefined,
      externalIds: externalIds as Record<string, string | number | null>,
      fields,
      verbatim: true,
    },
    entry,
    [],
    plays,
  );
}

/**
 * This API's JSON export (`media-tracker/list@1`): `{ format, category, exported_at, entries: [...] }`.
 * The format and category are checked as soon as they are read (our writer puts them first); a file
 * without them is not our export.
 */
async function* parseMediaTrackerJson(input: ImportInput, context: ParseContext): AsyncGenerator<ImportRow> {
  let format: unknown;
  const layout = { root: 'object', rowsKey: 'entries', scalarKeys: ['format', 'category'] } as const;
  for await (const event of readJsonRows(input, layout, context.limits)) {
    if (event.kind === 'scalar') {
      if (event.key === 'format') {
        format = event.value;
        if (format !== EXPORT_FORMAT)
          throw unreadableFile(`not a media-tracker export: format must be '${EXPORT_FORMAT}'`);
      } else if (event.value !== context.category) {
        throw unreadableFile(
          `this export is of category '${String(event.value).slice(0, 40)}', not ${context.category}`,
        );
      }
      continue;
    }
    if (format === undefined)
      throw unreadableFile(`not a media-tracker export: 'format' must come before 'entries'`);
    yield rowOf(event.row, event.value, context);
  }
  if (format === undefined)
    throw unreadableFile(`not a media-tracker export: it has no format '${EXPORT_FORMAT}'`);
}

export const mediaTrackerJsonSource: ImportSourceParser = {
  id: 'media-tracker',
  categories: ['movies', 'tvshows', 'books'],
  mediaType: 'application/json',
  parse: parseMediaTrackerJson,
};
