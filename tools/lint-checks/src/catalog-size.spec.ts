import { lintAs, ruleMessages } from './run-eslint';

const FILE = 'apps/catalog-service/src/features/list/probe.ts';

describe("the catalog service's size rules", () => {
  it('refuses a production file over 300 lines', () => {
    const long = Array.from({ length: 301 }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';
    expect(ruleMessages(lintAs(FILE, long), 'max-lines')).toHaveLength(1);
    expect(ruleMessages(lintAs(FILE, long.split('\n').slice(0, 300).join('\n') + '\n'), 'max-lines')).toEqual([]);
  });

  it('refuses a constructor with more than five positional parameters, and accepts named ones', () => {
    const positional = 'export class Wide {\n  constructor(a: 1, b: 2, c: 3, d: 4, e: 5, f: 6) {\n    void [a, b, c, d, e, f];\n  }\n}\n';
    const named = 'export class Narrow {\n  constructor({ a, b }: { a: 1; b: 2 }) {\n    void [a, b];\n  }\n}\n';
    expect(ruleMessages(lintAs(FILE, positional), 'no-restricted-syntax')).toEqual([expect.stringContaining('at most five positional parameters')]);
    expect(ruleMessages(lintAs(FILE, named), 'no-restricted-syntax')).toEqual([]);
  });

  it('refuses a constructor with more than five positional parameters in every app and lib', () => {
    const positional = 'export class Wide {\n  constructor(a: 1, b: 2, c: 3, d: 4, e: 5, f: 6) {\n    void [a, b, c, d, e, f];\n  }\n}\n';
    for (const file of ['apps/auth-service/src/login/probe.ts', 'apps/gateway/src/probe.ts', 'libs/shared/http/src/probe.ts'])
      expect(ruleMessages(lintAs(file, positional), 'no-restricted-syntax')).toEqual([expect.stringContaining('at most five positional parameters')]);
  });

  it('leaves specs alone', () => {
    const long = Array.from({ length: 400 }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';
    expect(ruleMessages(lintAs('apps/catalog-service/src/features/list/probe.spec.ts', long), 'max-lines')).toEqual([]);
  });
});
