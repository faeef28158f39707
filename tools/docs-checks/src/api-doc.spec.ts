import { ERROR_CATALOG } from '@mt/errors';
import { routeManifest, type EndpointGroup } from '@mt/endpoints';
import { authEndpoints } from '../../../apps/auth-service/src/auth.endpoints';
import type { AuthModule } from '../../../apps/auth-service/src/auth-module';
import { CATEGORY_IDS, getCategory } from '../../../apps/catalog-service/src/domain/categories';
import type { CatalogModule } from '../../../apps/catalog-service/src/composition/catalog-module';
import { categoryEndpoints } from '../../../apps/catalog-service/src/http/category.endpoints';
import { discoveryEndpoints } from '../../../apps/gateway/src/discovery/discovery.endpoints';
import { scrobbleEndpoints } from '../../../apps/scrobble-service/src/http/scrobble.endpoints';
import { readRepoFile } from './markdown';

const API_DOC = readRepoFile('docs/api.md');

/** The rows `| \`code\` | status | …` of the error table in docs/api.md. */
function documentedErrorCodes(): Map<string, number> {
  const rows = [...API_DOC.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)];
  return new Map(rows.map((m) => [m[1]!, Number(m[2])]));
}

// Endpoint declarations only read their services inside handlers, which this test never calls: the groups
// can be built without stores, exactly as the services build them for their route manifests.
const unused = {} as never;
function publicGroups(): EndpointGroup[] {
  const categories = CATEGORY_IDS.map((id) =>
    categoryEndpoints({ category: getCategory(id), catalog: unused, lists: unused } as unknown as CatalogModule),
  );
  return [
    discoveryEndpoints({ routeTable: unused, openApi: unused }),
    authEndpoints({ users: unused, account: unused, login: unused, tokens: unused } as unknown as AuthModule),
    ...categories,
    scrobbleEndpoints({ hooks: unused, receiver: unused, inbox: unused }),
  ];
}

/** A route as docs/api.md writes it: the category's name replaced by `{category}`. */
function asDocumented(method: string, path: string): string {
  const generic = path.replace(new RegExp(`^/api/v1/(${CATEGORY_IDS.join('|')})(?=/|$)`), '/api/v1/{category}');
  return `${method} ${generic}`;
}

describe('docs/api.md', () => {
  it('documents every error code of the catalog with its status', () => {
    const documented = documentedErrorCodes();
    expect(Object.fromEntries(documented)).toEqual(ERROR_CATALOG);
  });

  it('documents every public route the services announce in their manifests', () => {
    const routes = publicGroups().flatMap((group) => routeManifest([group]).routes);
    expect(routes.length).toBeGreaterThan(20);
    const missing = routes
      .map((route) => asDocumented(route.method, route.path))
      .filter((route) => !API_DOC.includes(`\`${route}\``));
    expect(missing).toEqual([]);
  });

  it('names the scope each protected route needs in its row', () => {
    const rows = API_DOC.split('\n');
    const wrong = publicGroups()
      .flatMap((group) => routeManifest([group]).routes)
      .filter((route) => {
        const row = rows.find((line) => line.startsWith(`| \`${asDocumented(route.method, route.path)}\` |`));
        const access = route.access.kind === 'public' ? 'public' : `\`${route.access.scope}\``;
        return !row?.split('|')[2]?.includes(access);
      })
      .map((route) => `${route.method} ${route.path}`);
    expect(wrong).toEqual([]);
  });
});
