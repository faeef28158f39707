import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeImportSource } from './import-mappings';
import { SOURCE_IDS } from './sources/source';

describe('README', () => {
  it('shows the mapping of every source exactly as describeImportSource gives it', () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    const section = /<!-- mappings:start -->\n([\s\S]*?)\n<!-- mappings:end -->/.exec(readme)?.[1];
    expect(section).toBe(SOURCE_IDS.map(describeImportSource).join('\n\n'));
  });
});
