import { parseImport, type Category, type ImportRow } from '@mt/importers';
import type { Logger } from '@mt/logging';
import { toId } from '../../domain/ids';
import type { CategoryDefinition } from '../../domain/categories';
import type { ImportOutcome } from '../../domain/list-import';
import { type NewListEntryFields } from '../../domain/list-entry';
import { ListedItemGoneError, type ImportedEntry, type ListImportBatches } from '../list/list-import-batches';
import type { ImportCounts, RowError } from '../../domain/list-import';
import { PlannedEntries, type ImportMatcher, type RowMatch } from './import-matcher';
import { KeptRowMessages } from './kept-row-messages';
import type { ImportPlays } from './import-plays';
import { MAX_BATCH_PLAYS } from '../../domain/plays';
import type { PlayedEntryState } from '../../domain/play-state';
import { DuplicateEntryError, DuplicateExternalIdError } from '../../domain/records/catalog-entry.record';
import type { CatalogStore } from '../../domain/ports/catalog-store.port';
import type { Session } from '../../domain/ports/atomic.port';
import { listedItem } from '../../domain/records/list-entry.record';
import type { ImportJobDocument } from '../../domain/records/import-job.record';
import type { ImportJobsStore } from '../../domain/ports/import-jobs-store.port';

/** Rows applied per transaction (with their checkpoint). */
export const IMPORT_BATCH_ROWS = 500;
/** A batch that met a racing creation of one of its catalog entries is matched again this many times. */
const BATCH_ATTEMPTS = 5;

/** What a row wrote of its entry, kept after its plays; null when the plays decide or the row wrote nothing. */
function keptEntry(row: EntryRow, outcome: ImportOutcome | undefined): PlayedEntryState | null {
  if (row.playsDecideStatus || (outcome !== 'added' && outcome !== 'updated')) return null;
  const { status, progress, started_at, finished_at } = row.entry;
  return { status, progress, started_at, finished_at };
}

/** The job's record is gone (its account was deleted) or another worker moved it on: this run must stop. */
export class ImportJobGoneError extends Error {
  override name = 'ImportJobGoneError';
}

type OkRow = Extract<ImportRow, { ok: true }>;
type EntryRow = OkRow & { entry: NonNullable<OkRow['entry']> };
const hasEntry = (row: OkRow): row is EntryRow => row.entry !== null;
interface DryRunState {
  overlay: Map<string, NewListEntryFields>;
  planned: PlannedEntries;
}

/** The counts, errors and warnings of one batch, as it is committed with its checkpoint. */
class BatchTally {
  readonly counts: Partial<ImportCounts> = {};
  readonly errors: RowError[] = [];
  readonly warnings: RowError[] = [];
  add(key: keyof ImportCounts, n = 1): void {
    this.counts[key] = (this.counts[key] ?? 0) + n;
  }
  fail(row: number, message: string): void {
    this.add('failed');
    this.errors.push({ row, message });
  }
}

export interface ImportRunnerDeps {
  category: CategoryDefinition;
  plays: ImportPlays;
  jobs: ImportJobsStore;
  lists: ListImportBatches;
  catalog: CatalogStore;
  matcher: ImportMatcher;
  logger: Logger;
  now?: () => Date;
  batchRows?: number;
}

/**
 * Executes one import job, resumable at any point: the stored upload is parsed again from the start (the
 * parse is deterministic), the rows before the checkpoint are passed over, and every following batch is
 * applied in one transaction together with the counts and the checkpoint it moves. A crash therefore
 * loses at most the batch in flight, which is applied again, whole, by the next run: same counts, no row
 * applied twice. A dry run commits only counts, and a resumed dry run starts again from its first row.
 */
export class ImportRunner {
  private readonly category: ImportRunnerDeps['category'];
  private readonly jobs: ImportRunnerDeps['jobs'];
  private readonly lists: ImportRunnerDeps['lists'];
  private readonly catalog: ImportRunnerDeps['catalog'];
  private readonly matcher: ImportRunnerDeps['matcher'];
  private readonly plays: ImportRunnerDeps['plays'];
  private readonly logger: ImportRunnerDeps['logger'];
  private readonly now: () => Date;
  private readonly batchRows: number;

  constructor(deps: ImportRunnerDeps) {
    this.category = deps.category;
    this.jobs = deps.jobs;
    this.lists = deps.lists;
    this.catalog = deps.catalog;
    this.matcher = deps.matcher;
    this.plays = deps.plays;
    this.logger = deps.logger;
    this.now = deps.now ?? (() => new Date());
    this.batchRows = deps.batchRows ?? IMPORT_BATCH_ROWS;
  }

  async run(jobId: string): Promise<void> {
    const id = toId(jobId);
    const job = await this.jobs.start(id, this.now());
    if (!job) return; // finished, or removed with its account
    try {
      await this.applyRows(job);
    } catch (error) {
      if (error instanceof ImportJobGoneError || !(await this.jobs.findById(id))) {
        this.logger.info({ import_id: jobId }, 'import stopped: its record is gone or was taken over');
        return;
      }
      throw error;
    }
    await this.jobs.finish(id, 'completed', this.now());
    await this.jobs.deleteUpload(id);
  }

  /** After the queue gave up on the job (repeated failures): it ends `failed` with the reason. */
  async fail(jobId: string, reason: string): Promise<void> {
    const id = toId(jobId);
    await this.jobs.finish(id, 'failed', this.now(), `the import stopped: ${reason}`);
    await this.jobs.deleteUpload(id);
  }

  private async applyRows(job: ImportJobDocument): Promise<void> {
    const rows = parseImport(this.jobs.readUpload(job._id), { source: job.source as never, category: this.category.id as Category, fileName: job.file_name ?? undefined });
    // Dry runs: what the earlier rows would have done (list fields by item id; entries they would create).
    const dry = { overlay: new Map<string, NewListEntryFields>(), planned: new PlannedEntries() };
    const kept = new KeptRowMessages(job);
    let position = 0;
    let batch: ImportRow[] = [];
    let plays = 0;
    for await (const row of rows) {
      position++;
      if (position <= job.rows_done) continue;
      batch.push(row);
      plays += row.ok ? row.plays.length : 0;
      // A batch's plays are written in its transaction: it is cut at the plays one batch of plays may hold.
      if (batch.length >= this.batchRows || plays >= MAX_BATCH_PLAYS) {
        await this.applyBatch(job, batch, position - batch.length, dry, kept);
        batch = [];
        plays = 0;
      }
    }
    if (batch.length) await this.applyBatch(job, batch, position - batch.length, dry, kept);
  }

  private async applyBatch(job: ImportJobDocument, rows: ImportRow[], from: number, dry: DryRunState, kept: KeptRowMessages): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.tryBatch(job, rows, from, dry, kept);
      } catch (error) {
        // Another user created one of the batch's entries meanwhile, or a moderator removed or merged one it
        // matched: matching again finds the new one, the survivor, or none (a row like any other then).
        const raced = error instanceof DuplicateEntryError || error instanceof DuplicateExternalIdError || error instanceof ListedItemGoneError;
        if (!raced || attempt >= BATCH_ATTEMPTS) throw error;
      }
    }
  }

  private async tryBatch(job: ImportJobDocument, rows: ImportRow[], from: number, dry: DryRunState, kept: KeptRowMessages): Promise<void> {
    const tally = new BatchTally();
    const ok: OkRow[] = [];
    for (const row of rows) {
      if (row.ok) ok.push(row);
      else if (row.skipped) tally.add('skipped');
      else tally.fail(row.row, row.message);
    }
    const matches = await this.matcher.match(
      ok.map((row) => row.item),
      job.user_id,
      job.can_create_entries,
      this.now(),
      job.dry_run ? dry.planned : undefined,
    );
    const applied: Array<{ row: EntryRow; entry: ImportedEntry; match: RowMatch }> = [];
    // Rows of plays alone (our plays CSV): matched like the others, then only their plays are written.
    const playsOnly: Array<{ row: OkRow; itemId: ImportedEntry['itemId']; match: RowMatch }> = [];
    ok.forEach((row, index) => {
      const match = matches[index] ?? { kind: 'failed', message: 'not matched' };
      if (match.kind === 'failed') return tally.fail(row.row, match.message);
      const itemId = match.kind === 'matched' ? match.id : match.doc._id;
      if (!hasEntry(row)) return playsOnly.push({ row, itemId, match });
      const entry: ImportedEntry = match.kind === 'matched' ? { itemId, fields: row.entry } : { itemId, created: listedItem(match.doc), fields: row.entry };
      applied.push({ row, entry, match });
    });
    for (const { match } of [...applied, ...playsOnly]) tally.add(match.kind === 'create' ? 'catalog_created' : 'matched');
    for (const { row } of [...applied, ...playsOnly]) for (const message of row.warnings) tally.warnings.push({ row: row.row, message });
    const creations = [...applied, ...playsOnly].flatMap(({ match }) => (match.kind === 'create' ? [match.doc] : []));
    tally.errors.sort((a, b) => a.row - b.row); // a failed match may follow a failed parse in the batch
    let stored = kept.fit(tally);
    // Computed afresh on every attempt: a retried transaction must not count its outcomes twice.
    const checkpoint = async (outcomes: ImportOutcome[], session: Session, playWarnings: RowError[] = []) => {
      const counts = { ...tally.counts };
      for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
      stored = kept.fit({ errors: tally.errors, warnings: [...tally.warnings, ...playWarnings].sort((a, b) => a.row - b.row) });
      if (!(await this.jobs.checkpoint(job._id, from, from + rows.length, counts, stored, session))) throw new ImportJobGoneError('job moved on');
    };

    if (job.dry_run) {
      const outcomes = await this.lists.previewImport(job.user_id, applied.map(({ entry }) => entry), job.mode, dry.overlay);
      await checkpoint([...outcomes, ...playsOnly.map((): ImportOutcome => 'unchanged')], undefined);
      kept.add(stored);
      return;
    }
    await this.lists.importEntries(
      job.user_id,
      job.mode,
      applied.map(({ entry }) => entry),
      (session) => this.catalog.insertAll(creations, session),
      async (session, outcomes, stamp) => {
        // The file's entry is kept after its plays where the file wrote it (added or updated) and says it.
        const created = (match: RowMatch) => (match.kind === 'create' ? { year: match.doc.year } : null);
        const withEntries = applied.map(({ row, entry, match }, index) => ({ row: row.row, itemId: entry.itemId, plays: row.plays, keep: keptEntry(row, outcomes[index]), created: created(match) }));
        const alone = playsOnly.map(({ row, itemId, match }) => ({ row: row.row, itemId, plays: row.plays, keep: null, created: created(match) }));
        const played = await this.plays.record(stamp, [...withEntries, ...alone], `import:${job.source}`);
        const playsOnlyOutcomes = playsOnly.map(({ row }): ImportOutcome => (played.addedByRow.get(row.row) ? 'updated' : 'unchanged'));
        await checkpoint([...outcomes, ...playsOnlyOutcomes], session, played.warnings);
      },
    );
    kept.add(stored);
  }
}
