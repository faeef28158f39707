import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository root (tests run from anywhere). */
export const REPO_ROOT = path.resolve(__dirname, '../../..');

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'tmp', '.git', '.nx', '.data', 'coverage']);

/** Every Markdown file of the repository, relative to its root, build output and dependencies left out. */
export function markdownFiles(dir = REPO_ROOT): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) found.push(...markdownFiles(path.join(dir, entry.name)));
    } else if (entry.name.endsWith('.md')) {
      found.push(path.relative(REPO_ROOT, path.join(dir, entry.name)));
    }
  }
  return found.sort();
}

export const readRepoFile = (file: string): string => readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** The text outside fenced code blocks and inline code: what a reader sees as prose and links. */
export function proseOf(markdown: string): string {
  return markdown
    .replace(/^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, '')
    .replace(/(`+)[^`\n]*?\1/g, '');
}

/** Headings (ATX `#` style) outside code blocks, as written. */
export function headingsOf(markdown: string): string[] {
  const withoutFences = markdown.replace(/^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, '');
  return [...withoutFences.matchAll(/^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/gm)].map((m) => (m[1] ?? ''));
}

/**
 * GitHub's anchor for a heading: the rendered text lower-cased, everything but letters, digits, spaces,
 * `-` and `_` dropped, spaces turned into `-`; a repeated slug gets `-1`, `-2`, … in order.
 */
export function headingSlugs(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const slugs = new Set<string>();
  for (const heading of headingsOf(markdown)) {
    const text = heading
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*]/g, '')
      .replace(/(^|\W)_+|_+(\W|$)/g, '$1$2');
    const base = text
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

export interface MarkdownLink {
  target: string;
  line: number;
}

/** Inline links and images `[text](target)` / `![alt](target)` and reference definitions `[id]: target`. */
export function linksOf(markdown: string): MarkdownLink[] {
  const prose = proseOfKeepingLines(markdown);
  const links: MarkdownLink[] = [];
  const lineAt = (index: number) => prose.slice(0, index).split('\n').length;
  for (const m of prose.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^()\s>]*(?:\([^()\s]*\)[^()\s>]*)*)>?(?:\s+"[^"]*")?\s*\)/g)) {
    links.push({ target: (m[1] ?? ''), line: lineAt((m.index ?? 0)) });
  }
  for (const m of prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/gm)) {
    links.push({ target: (m[1] ?? ''), line: lineAt((m.index ?? 0)) });
  }
  for (const m of prose.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"/g)) {
    links.push({ target: (m[1] ?? ''), line: lineAt((m.index ?? 0)) });
  }
  return links;
}

/** Like proseOf, but code is blanked (same number of lines), so line numbers stay those of the file. */
export function proseOfKeepingLines(markdown: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  return markdown
    .replace(/^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, blank)
    .replace(/(`+)[^`\n]*?\1/g, blank);
}
