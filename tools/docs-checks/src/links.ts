import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { headingSlugs, headingsOf, linksOf, proseOfKeepingLines, readRepoFile, REPO_ROOT } from './markdown';

export interface BrokenReference {
  file: string;
  line: number;
  reference: string;
  problem: string;
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** Anchors a Markdown file offers: its headings' slugs and explicit `<a name>` / `id` anchors. */
function anchorsOf(file: string): Set<string> {
  const text = readRepoFile(file);
  const anchors = headingSlugs(text);
  for (const m of text.matchAll(/<[a-z]+\s[^>]*?(?:name|id)="([^"]+)"/g)) anchors.add(m[1] ?? '');
  return anchors;
}

/** Every relative link and image of `file` that does not resolve, or whose `#anchor` is not a heading there. */
export function brokenLinks(file: string): BrokenReference[] {
  const broken: BrokenReference[] = [];
  for (const { target, line } of linksOf(readRepoFile(file))) {
    if (EXTERNAL.test(target) || target === '') continue;
    const [rawPath = '', anchor] = target.split('#', 2);
    const pathPart = decodeURIComponent(rawPath.split('?')[0] ?? '');
    const resolved = pathPart === '' ? file : pathPart.startsWith('/') ? pathPart.slice(1) : path.join(path.dirname(file), pathPart);
    const report = (problem: string) => broken.push({ file, line, reference: target, problem });
    if (!existsSync(path.join(REPO_ROOT, resolved))) {
      report(`${resolved} does not exist`);
      continue;
    }
    if (anchor === undefined || !resolved.endsWith('.md') || statSync(path.join(REPO_ROOT, resolved)).isDirectory()) continue;
    if (!anchorsOf(resolved).has(decodeURIComponent(anchor))) report(`no heading #${anchor} in ${resolved}`);
  }
  return broken;
}

/** The numbers of a file's numbered headings (`## 4. Categories` → `4`, `### 6.1 Bulk` → `6.1`). */
function sectionNumbers(file: string): Set<string> {
  return new Set(headingsOf(readRepoFile(file)).flatMap((h) => /^(\d+(?:\.\d+)*)\.?\s/.exec(h)?.[1] ?? []));
}

/**
 * `§` references (`§4`, `§5–6`, `§1.1`): each names a numbered heading of the document it refers to — the
 * link or `*.md` file named last before it on the same line, else the file it is written in.
 */
export function brokenSectionReferences(file: string): BrokenReference[] {
  const broken: BrokenReference[] = [];
  const lines = proseOfKeepingLines(readRepoFile(file)).split('\n');
  lines.forEach((text, index) => {
    for (const m of text.matchAll(/§\s?(\d+(?:\.\d+)*)(?:\s?[–-]\s?(\d+(?:\.\d+)*))?/g)) {
      const before = text.slice(0, m.index);
      const named = [...before.matchAll(/\]\(([^)#\s]+\.md)(?:#[^)]*)?\)|([\w./-]+\.md)\b/g)].pop();
      const namedPath = named?.[1] ?? named?.[2];
      const target = namedPath ? path.join(path.dirname(file), namedPath) : file;
      const report = (problem: string) => broken.push({ file, line: index + 1, reference: m[0], problem });
      if (!existsSync(path.join(REPO_ROOT, target))) {
        report(`refers to ${namedPath}, which is not in the repository`);
        continue;
      }
      const sections = sectionNumbers(target);
      for (const number of [m[1], m[2]].filter((n): n is string => n !== undefined)) {
        if (!sections.has(number)) report(`${target} has no section ${number}`);
      }
    }
  });
  return broken;
}
