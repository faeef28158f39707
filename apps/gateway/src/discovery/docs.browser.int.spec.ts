import { deleteRedisPrefix, testRedisPrefix } from '@mt/testing';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startDiscoveryStack, type DiscoveryStack } from '../../test/discovery-stack';

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
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await deleteRedisPrefix(prefix);
  });

  it('lists every category, runs "try it out" with a bearer token, and never leaves the origin', async () => {
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
    expect(tags).toEqual(['books', 'movies', 'discovery', 'probes']);
    for (const [tag, category] of [['books', 'books'], ['movies', 'movies']]) {
      const paths = await page.locator(`#operations-tag-${tag}`).locator('xpath=..').locator('.opblock-summary-path').allInnerTexts();
      expect(paths.map((p) => p.replace(/\u200b/g, ''))).toEqual(
        expect.arrayContaining([`/api/v1/${category}`, `/api/v1/${category}/{id}`, `/api/v1/${category}/list`]),
      );
    }

    // A public operation of the gateway itself.
    const categories = await tryItOut(page, 'operations-discovery-gatewayListCategories');
    expect(categories.status).toBe('200');
    expect(JSON.parse(categories.body).map((c: { id: string }) => c.id)).toEqual(['books', 'movies']);

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

    // persistAuthorization: the token survives a reload.
    await page.reload();
    await page.locator('.opblock-tag-section').first().waitFor();
    expect(await page.evaluate<string | null>("localStorage.getItem('authorized')")).toContain(token);

    const origin = new URL(stack.url).origin;
    expect(requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'))).toEqual([]);
    expect(requested).toEqual(expect.arrayContaining([`${origin}/api/v1/openapi.json`, `${origin}/api/v1/categories`]));
    expect(requested.some((url) => url.startsWith(`${origin}/api/v1/movies/list`))).toBe(true);
    expect(await page.evaluate<string[]>('window.__cspViolations')).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 240_000);
});
