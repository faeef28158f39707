import axe from 'axe-core';
import { findWorkspaceRoot } from '@mt/stack';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });

/** Screenshots of every step, per width: tmp/web-e2e/screenshots/<width>/<step>.png. */
export const SCREENSHOT_DIR = path.join(findWorkspaceRoot(), 'tmp', 'web-e2e', 'screenshots');

/** Runs in the page before any of its scripts (a string: added through the DevTools protocol, not the page's CSP). */
const WATCHERS = `
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
  window.__layoutShift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__layoutShift += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
`;

export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and failed page errors seen so far. */
  errors: string[];
  /** Every URL the page requested. */
  requested: string[];
  screenshot(step: string): Promise<void>;
  /** axe-core over the whole page: the serious and critical violations (expected: none). */
  axe(): Promise<Array<{ id: string; impact: string; nodes: string[] }>>;
  cspViolations(): Promise<string[]>;
  layoutShift(): Promise<number>;
  close(): Promise<void>;
}

export async function openPage(browser: Browser, options: { width: number; height?: number; name: string }): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: { width: options.width, height: options.height ?? (options.width < 600 ? 844 : 900) },
    deviceScaleFactor: 1,
    isMobile: false,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await context.addInitScript({ content: WATCHERS });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  const requested: string[] = [];
  page.on('console', (message) => {
    // A 4xx the app shows in words is still logged by Chromium as a failed resource: not an app error.
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('request', (request) => requested.push(request.url()));
  const dir = path.join(SCREENSHOT_DIR, options.name);
  mkdirSync(dir, { recursive: true });
  let step = 0;
  return {
    context,
    page,
    errors,
    requested,
    async screenshot(name) {
      step += 1;
      await page.screenshot({ path: path.join(dir, `${String(step).padStart(2, '0')}-${name}.png`), fullPage: true });
    },
    async axe() {
      if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(axe.source);
      const results = (await page.evaluate(`window.axe.run(document, { resultTypes: ['violations'] })`)) as axe.AxeResults;
      return results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, impact: v.impact ?? '', nodes: v.nodes.map((n) => n.target.join(' ')) }));
    },
    cspViolations: () => page.evaluate<string[]>('window.__cspViolations'),
    layoutShift: () => page.evaluate<number>('window.__layoutShift'),
    close: () => context.close(),
  };
}
