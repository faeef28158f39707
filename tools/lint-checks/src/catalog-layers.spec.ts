import { lintAs, ruleMessages } from './run-eslint';

const SRC = 'apps/catalog-service/src';
const RULE = 'import-x/no-restricted-paths';

/** Lints a one-line module at `file` (under the catalog's src) importing `specifier`. */
const importing = (file: string, specifier: string) => ruleMessages(lintAs(`${SRC}/${file}`, `import '${specifier}';\n`), RULE);

describe("the catalog service's layers (import-x/no-restricted-paths)", () => {
  it('refuses domain importing data', () => {
    expect(importing('domain/probe.ts', '../data/list-owners.repository')).toEqual([expect.stringContaining('domain may import only itself')]);
  });

  it('refuses data importing a feature', () => {
    expect(importing('data/probe.ts', '../features/list/list.service')).toEqual([expect.stringContaining('data may import only domain')]);
  });

  it('refuses a feature importing data', () => {
    expect(importing('features/list-stats/probe.ts', '../../data/list-owners.repository')).toEqual([expect.stringContaining('features may import only domain')]);
  });

  it('refuses http importing data or composition', () => {
    expect(importing('http/probe.ts', '../data/list-owners.repository')).toHaveLength(1);
    expect(importing('http/probe.ts', '../composition/catalog-module')).toHaveLength(1);
  });

  it('refuses main.ts importing anything but composition', () => {
    expect(importing('main.ts', './http/app')).toHaveLength(1);
    expect(importing('main.ts', './composition/catalog-service')).toEqual([]);
  });

  it('accepts imports along the direction', () => {
    expect(importing('http/probe.ts', '../features/list/list.service')).toEqual([]);
    expect(importing('features/list-stats/probe.ts', '../../domain/list-entry')).toEqual([]);
    expect(importing('data/probe.ts', '../domain/list-entry')).toEqual([]);
    expect(importing('migrations/probe.ts', '../data/list-owners.repository')).toEqual([]);
    expect(importing('composition/probe.ts', '../data/list-owners.repository')).toEqual([]);
  });

  it('leaves specs free to set up any layer', () => {
    expect(importing('domain/probe.spec.ts', '../data/list-owners.repository')).toEqual([]);
  });
});
