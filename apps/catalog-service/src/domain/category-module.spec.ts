import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getCategory, knownCategoryIds, loadCategoryModule } from './categories';

describe('a category module (CATEGORY_MODULE)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mt-category-module-'));
  const modulePath = path.join(dir, 'boardgames.cjs');
  writeFileSync(
    modulePath,
    `module.exports = [{ id: 'boardgames', displayName: 'Board games', description: 'Board games', icon: 'dice', progressUnit: 'minutes', defaultPort: 0 }];`,
  );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('adds its categories beside the shipped ones', () => {
    expect(loadCategoryModule(modulePath)).toEqual(['boardgames']);
    expect(knownCategoryIds()).toContain('boardgames');
    expect(getCategory('boardgames').displayName).toBe('Board games');
  });

  it('loads once when two catalogs of one process name the same module', () => {
    expect(() => loadCategoryModule(modulePath)).not.toThrow();
    expect(loadCategoryModule(modulePath)).toEqual(['boardgames']);
    expect(knownCategoryIds().filter((id) => id === 'boardgames')).toHaveLength(1);
  });
});
