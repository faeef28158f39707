import { readFileSync } from 'node:fs';
import path from 'node:path';
import { lintAs, ruleMessages, WORKSPACE } from './run-eslint';

const SHELF = 'tools/lint-checks/fixtures/type-cycle/shelf.ts';
const shelf = readFileSync(path.join(WORKSPACE, SHELF), 'utf8');

describe('mt/no-import-cycle', () => {
  it('refuses a circle closed by type-only imports', () => {
    expect(ruleMessages(lintAs(SHELF, shelf), 'mt/no-import-cycle')).toEqual(['Import cycle: shelf.ts → book.ts → shelf.ts']);
  });

  it('refuses a circle of value imports', () => {
    const valueImport = shelf.replace("import type { Book } from './book';", "import { type Book } from './book';\nimport './book';");
    expect(ruleMessages(lintAs(SHELF, valueImport), 'mt/no-import-cycle')).toHaveLength(2);
  });

  it('accepts the same file once nothing leads back to it', () => {
    const alone = shelf.replace("import type { Book } from './book';", "type Book = { title: string };");
    expect(ruleMessages(lintAs(SHELF, alone), 'mt/no-import-cycle')).toEqual([]);
  });
});
