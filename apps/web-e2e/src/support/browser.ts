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
  window.__layoutShifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__layoutShift += entry.value;
      window.__layoutShifts.push(entry.value.toFixed(3) + ' ' + (entry.sources || []).map((s) =>
        (s.node ? (s.node.className || s.node.nodeName) : '?') + ' y ' + Math.round(s.previousRect.y) + '→' + Math.round(s.currentRect.y) + ' h ' + Math.round(s.previousRect.height) + '→' + Math.round(s.currentRect.height)).join(', '));
    }
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
  /** Cumulative layout shift since the last resetLayoutShift(), with what moved. */
  layoutShift(): Promise<{ value: number; shifts: string[] }>;
  resetLayoutShift(): Promise<void>;
  close(): Promise<void>;
}

/** Contexts still open (a failed test leaves its own): closed by closeOpenPages() after each test. */
const open = new Set<BrowserContext>();

export async function closeOpenPages(): Promise<void> {
  await Promise.all([...open].map((context) => context.close().catch(() => undefined)));
  open.clear();
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
  // Generous: a shared 2-core CI machine can be very busy; a real failure still fails, only later.
  page.setDefaultTimeout(45_000);
  page.setDefaultNavigationTimeout(60_000);
  open.add(context);
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
    layoutShift: () => page.evaluate<{ value: number; shifts: string[] }>('({ value: window.__layoutShift, shifts: window.__layoutShifts })'),
    resetLayoutShift: () => page.evaluate<void>('window.__layoutShift = 0; window.__layoutShifts = []'),
    close: async () => {
      open.delete(context);
      await context.close();
    },
  };
}

/** Every screen: no serious or critical axe violation, nothing wider than the window, and a screenshot. */
export async function checkScreen(w: WatchedPage, name: string) {
  const violations = await w.axe();
  if (violations.length) throw new Error(`${name}: ${JSON.stringify(violations, null, 2)}`);
  const widths = await w.page.evaluate<{ scroll: number; client: number }>('({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })');
  if (widths.scroll > widths.client) throw new Error(`${name}: ${widths.scroll} px wide in a ${widths.client} px window (horizontal scroll)`);
  await w.screenshot(name);
}
