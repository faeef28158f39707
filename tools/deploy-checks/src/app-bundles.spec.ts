import { externalPackagesOf, productionDependencies } from './bundle';
import { IMAGES, repoFileExists } from './repo';

// The images install `npm ci --omit=dev`: a bundle that loads a devDependency would crash in the container.
describe('app bundles load only production dependencies', () => {
  it.each(IMAGES)('apps/$app/src/main.ts bundles against production dependencies only', async ({ app }) => {
    expect(repoFileExists('apps', app, 'src', 'main.ts')).toBe(true);
    const external = await externalPackagesOf(app);
    expect(external.length).toBeGreaterThan(0);
    expect(external.filter((name) => !productionDependencies().includes(name))).toEqual([]);
  });
});
