import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MONGO_ADVICE } from './embedded-stores';
import { findWorkspaceRoot } from './workspace';

describe('the advice printed when no MongoDB can be had', () => {
  it('gives every MONGO_URL exactly as the README gives it', () => {
    const readme = readFileSync(path.join(findWorkspaceRoot(), 'README.md'), 'utf8');
    const urls = [...MONGO_ADVICE.matchAll(/MONGO_URL='([^']+)'/g)].map((match) => match[1]);
    expect(urls).toEqual(['mongodb://host:27017/?replicaSet=rs0', 'mongodb://127.0.0.1:27017/?directConnection=true']);
    for (const url of urls) expect(readme).toContain(`MONGO_URL='${url}'`);
  });
});
