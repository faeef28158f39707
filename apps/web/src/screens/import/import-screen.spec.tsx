import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiError, baseServer, json, page } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const JOB_ID = 'f'.repeat(24);
const DOCUMENT = {
  paths: {
    '/api/v1/movies/list/imports': {
      post: { parameters: [{ name: 'source', in: 'query', schema: { type: 'string', enum: ['media-tracker', 'csv', 'letterboxd'] } }] },
    },
  },
};
const CSV = 'item_id,title,year,status\n,Alien,1979,completed\n,,,completed\n';

const job = (extra: Record<string, unknown> = {}) => ({
  id: JOB_ID,
  category: 'movies',
  source: 'csv',
  mode: 'skip_existing',
  dry_run: true,
  file_name: 'mine.csv',
  status: 'queued',
  counts: { rows: 2, matched: 0, catalog_created: 0, added: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0 },
  errors: [],
  warnings: [],
  failure: null,
  created_at: '2026-11-20T10:00:00.000Z',
  started_at: null,
  finished_at: null,
  ...extra,
});

const finished = (dryRun: boolean) =>
  job({
    dry_run: dryRun,
    status: 'completed',
    counts: { rows: 2, matched: 1, catalog_created: 0, added: 1, updated: 0, unchanged: 0, skipped: 0, failed: 1 },
    errors: [{ row: 3, message: 'a row needs a title or an external id' }],
    warnings: [{ row: 2, message: "year '19799' is not valid and was dropped" }],
  });

/** An import API whose job runs once (running, then finished) each time it is started. */
function importServer() {
  let current = job();
  let reads = 0;
  const server = baseServer()
    .on('GET', '/api/v1/openapi.json', () => json(200, DOCUMENT))
    .on('GET', '/api/v1/movies/list/imports', () => json(200, page(current.status === 'completed' ? [current] : [], { next_cursor: null })))
    .on('POST', '/api/v1/movies/list/imports', (request) => {
      const dryRun = request.query.get('dry_run') === 'true';
      current = job({ dry_run: dryRun });
      reads = 0;
      return json(202, current, { location: `/api/v1/movies/list/imports/${JOB_ID}` });
    })
    .on('GET', `/api/v1/movies/list/imports/${JOB_ID}`, () => {
      reads += 1;
      current = reads === 1 ? job({ dry_run: current.dry_run, status: 'running', counts: { ...current.counts, added: 1 } }) : finished(current.dry_run);
      return json(200, current);
    });
  return server;
}

async function chooseFile(user: ReturnType<typeof userEvent.setup>, name = 'mine.csv', content = CSV) {
  if (name.endsWith('.csv')) await user.selectOptions(await screen.findByLabelText('From'), 'csv');
  await user.upload(await screen.findByLabelText('File'), new File([content], name, { type: 'text/csv' }));
}

describe('import', () => {
  it('offers the sources the API documents, dry-runs the file, shows its failed rows and its rows with a remark, then imports it on confirmation', async () => {
    const server = importServer();
    renderApp(server, '/movies/import');
    const user = userEvent.setup();
    const source = await screen.findByLabelText('From');
    expect(within(source).getAllByRole('option').map((o) => o.textContent)).toEqual(['Media Tracker export (JSON)', 'Media Tracker export (CSV)', 'Letterboxd (CSV)']);
    await user.selectOptions(source, 'csv');
    await chooseFile(user);
    await user.click(screen.getByRole('button', { name: 'Check the file' }));

    await screen.findByText('Dry run finished: nothing was changed. 1 row would fail.');
    const dry = server.sent('POST', '/api/v1/movies/list/imports')[0]!;
    expect(Object.fromEntries(dry.query)).toEqual({ source: 'csv', mode: 'skip_existing', dry_run: 'true', file: 'mine.csv' });
    expect(dry.contentType).toBe('text/csv');
    expect(dry.body).toBe(CSV);
    const failures = screen.getByRole('table', { name: 'The row that failed' });
    expect(within(failures).getByRole('rowheader').textContent).toBe('3');
    expect(within(failures).getByText('a row needs a title or an external id')).toBeTruthy();
    const remarks = screen.getByRole('table', { name: 'The row imported with a remark' });
    expect(within(remarks).getByRole('rowheader').textContent).toBe('2');
    expect(within(remarks).getByText("year '19799' is not valid and was dropped")).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Import it now' }));
    await screen.findByText('Import finished: 1 added, 0 updated, 1 failed.');
    const live = server.sent('POST', '/api/v1/movies/list/imports')[1]!;
    expect(live.query.get('dry_run')).toBe('false');
    expect(live.body).toBe(CSV);
    // The finished import joins the list of past ones.
    await screen.findByText(/2 rows: 1 added, 0 updated, 0 unchanged, 0 skipped, 1 failed/);
  });

  it('imports at once without a dry run, sending a JSON source as JSON and the mode chosen', async () => {
    const server = importServer();
    renderApp(server, '/movies/import');
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('From'), 'media-tracker');
    await chooseFile(user, 'export.json', '{"format":"media-tracker/list@1","entries":[]}');
    await user.click(screen.getByLabelText("Replace them with the file's"));
    await user.click(screen.getByLabelText(/Dry run first/));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText('Import finished: 1 added, 0 updated, 1 failed.');
    const sent = server.sent('POST', '/api/v1/movies/list/imports');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.contentType).toBe('application/json');
    expect(Object.fromEntries(sent[0]!.query)).toMatchObject({ source: 'media-tracker', mode: 'overwrite', dry_run: 'false' });
  });

  it('shows a file the server cannot read next to the file field, and a missing file before sending anything', async () => {
    const server = importServer().on('POST', '/api/v1/movies/list/imports', () => apiError(400, 'validation_failed', 'the file is not valid CSV: unclosed quote at row 2'));
    renderApp(server, '/movies/import');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Check the file' }));
    const file = screen.getByLabelText('File');
    expect(file.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Choose the file to import.')).toBeTruthy();
    expect(server.sent('POST', '/api/v1/movies/list/imports')).toHaveLength(0);

    await chooseFile(user, 'broken.csv', 'a,"b\n');
    await user.click(screen.getByRole('button', { name: 'Check the file' }));
    await waitFor(() => expect(document.getElementById(file.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toBe('The file is not valid CSV: unclosed quote at row 2.'));
  });

  it('says in words that another import is still running (409)', async () => {
    const server = importServer().on('POST', '/api/v1/movies/list/imports', () => apiError(409, 'conflict', 'an import into this list is already queued or running'));
    renderApp(server, '/movies/import');
    const user = userEvent.setup();
    await chooseFile(user);
    await user.click(screen.getByRole('button', { name: 'Check the file' }));
    expect((await screen.findByRole('alert')).textContent).toContain('An import into this list is already queued or running.');
  });

  it('stops polling the job when the screen is left', async () => {
    let reads = 0;
    const server = importServer()
      .on('GET', `/api/v1/movies/list/imports/${JOB_ID}`, () => {
        reads += 1;
        return json(200, job({ status: 'running' }));
      })
      .on('GET', '/api/v1/movies/list', () => json(200, page([], { limit: 50 })));
    renderApp(server, '/movies/import');
    const user = userEvent.setup();
    await chooseFile(user);
    await user.click(screen.getByRole('button', { name: 'Check the file' }));
    await waitFor(() => expect(reads).toBeGreaterThanOrEqual(1));
    await user.click(screen.getByRole('link', { name: 'My list' }));
    await screen.findByText('Your movies list is empty.');
    const seen = reads;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(reads).toBe(seen);
  });

  it('downloads the export as a file named by the server', async () => {
    const server = importServer().on('GET', '/api/v1/movies/list/export', (request) =>
      request.query.get('format') === 'csv'
        ? new Response('item_id,title\r\n', { status: 200, headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="movies-list-2026-11-25.csv"' } })
        : apiError(401, 'unauthorized', 'no'),
    );
    const created = vi.fn((_blob: Blob) => 'blob:fake');
    URL.createObjectURL = created as unknown as typeof URL.createObjectURL;
    URL.revokeObjectURL = vi.fn();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    renderApp(server, '/movies/import');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(clicked).toEqual(['movies-list-2026-11-25.csv']));
    expect(server.sent('GET', '/api/v1/movies/list/export')[0]?.authorization).toBe('Bearer jwt-1');
    expect(await created.mock.calls[0]![0].text()).toBe('item_id,title\r\n');
  });
});
