import { z } from '@mt/contracts';
import { defineEndpoint, reply, scope, type EndpointGroup } from '@mt/endpoints';
import { deleteRedisPrefix, testRedisPrefix } from '@mt/testing';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { catalogLikeGroup, startDiscoveryStack, type DiscoveryStack } from '../../test/discovery-stack';

const SCREENSHOT_DIR = path.resolve(__dirname, '../../../../tmp/docs-page');

const prefix = testRedisPrefix('docs-browser');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Runs in the page (a string: this project compiles without DOM types). */
const RECORD_CSP_VIOLATIONS = `
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push(event.violatedDirective + ' ' + event.blockedURI);
  });
`;

/** Every key and value in the page's localStorage and sessionStorage (a string: no DOM types here). */
const storedStrings = (page: Page) =>
  page.evaluate<string[]>(
    '[localStorage, sessionStorage].flatMap((store) => Object.keys(store).flatMap((key) => [key, store.getItem(key) || ""]))',
  );

/**
 * A category declared the way the catalog service declares one: search, one entry, then the writes, then the
 * list. Grouped by URL (Swagger UI's default) "Add" would come between "Search" and "One entry".
 */
function readsThenWrites(stack: DiscoveryStack): EndpointGroup {
  const base = catalogLikeGroup('tvshows', stack.seen, 'tvshows-1');
  const [search, one, list] = base.endpoints;
  const add = defineEndpoint({
    name: 'add entry',
    method: 'POST',
    path: '/',
    access: scope('catalog:write'),
    summary: 'Add an entry',
    body: z.strictObject({ title: z.string() }),
    responses: { 201: { description: 'The entry', schema: z.object({ id: z.string(), title: z.string() }) } },
    handle: ({ body }) => reply.created({ id: '0123456789abcdef01234567', title: body.title }),
  });
  const change = defineEndpoint({
    name: 'change entry',
    method: 'PATCH',
    path: '/{id}',
    access: scope('catalog:write'),
    summary: 'Change an entry',
    params: z.strictObject({ id: z.string() }),
    body: z.strictObject({ title: z.string() }),
    responses: { 200: { description: 'The entry', schema: z.object({ id: z.string(), title: z.string() }) } },
    handle: ({ params, body }) => reply.ok({ id: params.id, title: body.title }),
  });
  return { ...base, endpoints: [search!, one!, add, change, list!] };
}

/** Expands an operation, presses "Try it out" and "Execute", and returns the response's status and body. */
async function tryItOut(page: Page, operationDomId: string): Promise<{ status: string; body: string }> {
  const operation = page.locator(`#${operationDomId}`);
  await operation.locator('.opblock-summary-control').click();
  await operation.locator('button.try-out__btn').click();
  await operation.locator('button.execute').click();
  const response = operation.locator('.live-responses-table .response').first();
  await response.waitFor();
  return {
    status: (await response.locator('.response-col_status').innerText()).trim(),
    body: await response.locator('.response-col_description pre').first().innerText(),
  };
}

describe('the docs page in a real browser (headless Chromium)', () => {
  let stack: DiscoveryStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startDiscoveryStack({ prefix });
    await stack.addInstance('movies', 'movies-1');
    await stack.addInstance('books', 'books-1');
    await stack.addInstance('tvshows', 'tvshows-1', readsThenWrites(stack));
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await deleteRedisPrefix(prefix);
  });

  it('lists every category, runs "try it out" with a bearer token kept in no storage, and never leaves the origin', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // Swagger UI's bundle is large: a loaded machine (CI on 2 cores) needs more than Playwright's 30 s default.
    page.setDefaultTimeout(90_000);
    page.setDefaultNavigationTimeout(90_000);
    const requested: string[] = [];
    const consoleErrors: string[] = [];
    page.on('request', (req) => requested.push(req.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await context.addInitScript({ content: RECORD_CSP_VIOLATIONS });

    await page.goto(`${stack.url}/api/v1/docs`);
    await page.locator('.opblock-tag-section').first().waitFor();

    // Every live category is a section with its operations.
    const tags = await page.locator('.opblock-tag').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-tag')));
    expect(tags).toEqual(['books', 'movies', 'tvshows', 'discovery', 'home', 'images', 'probes']);
    for (const [tag, category] of [['books', 'books'], ['movies', 'movies']]) {
      const paths = await page.locator(`#operations-tag-${tag}`).locator('xpath=..').locator('.opblock-summary-path').allInnerTexts();
      expect(paths.map((p) => p.replace(/\u200b/g, ''))).toEqual(
        expect.arrayContaining([`/api/v1/${category}`, `/api/v1/${category}/{id}`, `/api/v1/${category}/list`]),
      );
    }

    // A public operation of the gateway itself.
    const categories = await tryItOut(page, 'operations-discovery-gatewayListCategories');
    expect(categories.status).toBe('200');
    expect(JSON.parse(categories.body).map((c: { id: string }) => c.id)).toEqual(['books', 'movies', 'tvshows']);

    // Authorize with a bearer token, then a protected catalog operation through the gateway.
    await page.locator('.auth-wrapper button.authorize').click();
    const dialog = page.locator('.modal-ux');
    const token = stack.jwt();
    await dialog.locator('input[type=text], input[type=password]').first().fill(token);
    await dialog.locator('button.authorize').click();
    await dialog.locator('button.btn-done').click();
    const list = await tryItOut(page, 'operations-movies-moviesGetList');
    expect(list.status).toBe('200');
    expect(JSON.parse(list.body)).toEqual({ data: [{ item_id: '0123456789abcdef01234567' }] });
    expect(stack.seen).toContainEqual({
      instanceId: 'movies-1',
      method: 'GET',
      url: expect.stringMatching(/^\/api\/v1\/movies\/list(\?|$)/),
      userId: 'user-1',
    });

    // The token is kept in no storage a script of the origin can read, before a reload nor after it.
    expect(await storedStrings(page)).not.toEqual(expect.arrayContaining([expect.stringContaining(token)]));
    await page.reload();
    await page.locator('.opblock-tag-section').first().waitFor();
    expect(await storedStrings(page)).not.toEqual(expect.arrayContaining([expect.stringContaining(token)]));
    expect((await context.cookies()).map((cookie) => cookie.value)).not.toContain(token);

    const origin = new URL(stack.url).origin;
    expect(requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'))).toEqual([]);
    expect(requested).toEqual(expect.arrayContaining([`${origin}/api/v1/categories`]));
    expect(requested.some((url) => url.startsWith(`${origin}/api/v1/movies/list`))).toBe(true);
    expect(await page.evaluate<string[]>('window.__cspViolations')).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 240_000);
  it('shows every operation as soon as the page has loaded, a tag\'s reads before its writes', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 2400 } });
    const page = await context.newPage();
    page.setDefaultTimeout(90_000);
    page.setDefaultNavigationTimeout(90_000);

    await page.goto(`${stack.url}/api/v1/docs`, { waitUntil: 'load' });
    // No waiting beyond "load": what a headless screenshot tool captures.
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'docs-at-load.png'), fullPage: true });
    const summaries = await page.evaluate<Array<{ tag: string | null; summary: string }>>(`
      [...document.querySelectorAll('.opblock-tag-section')].flatMap((section) =>
        [...section.querySelectorAll('.opblock-summary-description')].map((node) => ({
          tag: section.querySelector('.opblock-tag')?.getAttribute('data-tag') ?? null,
          summary: node.textContent.trim(),
        })))
    `);
    expect(await page.locator('.loading-container').count()).toBe(0);

    const of = (tag: string) => summaries.filter((s) => s.tag === tag).map((s) => s.summary);
    expect(of('tvshows')).toEqual(['Search', 'One entry', 'Add an entry', 'Change an entry', 'Your list']);
    expect(of('movies')).toEqual(['Search', 'One entry', 'Your list']);
    expect(of('discovery')).toEqual(
      expect.arrayContaining(['List live categories', 'This API description (OpenAPI 3.0)', 'Interactive API documentation']),
    );
    expect(of('probes')).toHaveLength(5);
    // Visible, not merely in the DOM.
    await expect(page.getByText('List live categories', { exact: true }).isVisible()).resolves.toBe(true);
    await context.close();
  }, 240_000);
});
