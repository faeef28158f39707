import { startCatalogHarness } from '../../test/catalog-harness';
import { seedEntries } from '../../test/seed';
import { newUserId } from '../../test/identity-headers';

it('times bulk-status', async () => {
  const h = await startCatalogHarness();
  const docs = await seedEntries(h.module, Array.from({ length: 500 }, (_, i) => ({ title: `T${i}` })));
  const user = newUserId();
  const ids = docs.map((d) => d._id.toHexString());
  for (const id of ids) await h.module.lists.add(user, { item_id: id });
  const statuses = ['watching', 'completed', 'dropped', 'on_hold'] as const;
  const out: string[] = [];
  for (let i = 0; i < 12; i++) {
    const t = Date.now();
    await h.module.lists.bulkStatus(user, ids, statuses[i % 4]!);
    out.push(`${statuses[i % 4]} ${Date.now() - t}`);
  }
  console.log(out.join('\n'));
  await h.close();
}, 120000);
