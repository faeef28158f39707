import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brokenLinks, brokenSectionReferences } from './links';
import { headingSlugs, markdownFiles, REPO_ROOT } from './markdown';

const describeReference = (b: { file: string; line: number; reference: string; problem: string }) =>
  `${b.file}:${b.line} ${b.reference} — ${b.problem}`;

describe('GitHub heading slugs', () => {
  it('lower-cases, drops punctuation, joins words with hyphens and numbers repeats', () => {
    const slugs = headingSlugs(
      ['# Quick start', '## `npm start`', '## Concurrency: why revocation holds', '## 4. Categories, documentation', '## Notes', '## Notes'].join('\n'),
    );
    expect([...slugs]).toEqual(['quick-start', 'npm-start', 'concurrency-why-revocation-holds', '4-categories-documentation', 'notes', 'notes-1']);
  });

  it('ignores headings inside code blocks', () => {
    expect([...headingSlugs('```sh\n# a comment\n```\n## Real\n')]).toEqual(['real']);
  });
});

describe('the checker', () => {
  // Under tmp/, which the walk over the repository skips.
  mkdirSync(path.join(REPO_ROOT, 'tmp'), { recursive: true });
  const dir = mkdtempSync(path.join(REPO_ROOT, 'tmp', 'docs-checks-'));
  const rel = (name: string) => path.relative(REPO_ROOT, path.join(dir, name));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds a missing file, a missing anchor and a section that does not exist', () => {
    writeFileSync(path.join(dir, 'target.md'), '# Target\n## 2. Errors\n');
    writeFileSync(
      path.join(dir, 'source.md'),
      [
        'See [the target](target.md#target), [errors](target.md#2-errors) and [here](#source).',
        '# Source',
        'Broken: [gone](gone.md), [no anchor](target.md#nowhere), ![img](missing.png), `[code](ignored.md)`.',
        'Sections: [target](target.md) §2 exists, [target](target.md) §3 does not, API.md §4 is not here.',
      ].join('\n'),
    );
    expect(brokenLinks(rel('source.md')).map((b) => b.reference)).toEqual(['gone.md', 'target.md#nowhere', 'missing.png']);
    expect(brokenSectionReferences(rel('source.md')).map((b) => `${b.reference}: ${b.problem}`)).toEqual([
      `§3: ${rel('target.md')} has no section 3`,
      '§4: refers to API.md, which is not in the repository',
    ]);
  });
});

describe('every Markdown file of the repository', () => {
  const files = markdownFiles();

  it('is found (README, docs, the apps)', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'docs/architecture.md', 'docs/operations.md']));
  });

  it('has only relative links and images that resolve, with anchors that name a heading', () => {
    expect(files.flatMap(brokenLinks).map(describeReference)).toEqual([]);
  });

  it('has only § references to sections that exist', () => {
    expect(files.flatMap(brokenSectionReferences).map(describeReference)).toEqual([]);
  });
});
