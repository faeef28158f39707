import { createLogger } from '@mt/logging';
import mongoose from 'mongoose';
import { generateMovies } from './data/movies';
import { openCatalogSeeder } from './seed/catalog-seeder';
import { seedList } from './seed/list-seeder';

async function main() {
  const url = process.env['MONGO_URL']!;
  const dbName = 'bench_devbulk';
  const c = await mongoose.createConnection(url, { dbName }).asPromise();
  await c.dropDatabase();
  const seeder = await openCatalogSeeder(url, dbName, createLogger({ service: 'dev', level: 'warn' }));
  await seeder.module.prepare();
  const data = generateMovies(10_000);
  await seeder.importEntries(data.docs);
  const user = 'u1';
  await seedList(seeder, user, data.docs.slice(0, 10_000).map((d) => d._id));
  const ids = data.docs.slice(0, 500).map((d) => d._id);
  const hex = ids.map((i) => i.toHexString());
  const t = async (label: string, f: () => Promise<unknown>) => {
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) { const s = performance.now(); await f(); runs.push(performance.now() - s); }
    console.log(label.padEnd(40), runs.map((r) => r.toFixed(0)).join(' '));
  };
  const lists = seeder.module.listRepository;
  const atomic = seeder.module.atomic;
  let k = 0;
  const st = () => (['on_hold', 'completed', 'dropped', 'watching'] as const)[k++ % 4];
  await t('bulkStatus (service)', () => seeder.module.lists.bulkStatus(user, hex, st()));
  await t('findMany no session', () => lists.findMany(user, ids, undefined));
  await t('setStatus no session', () => lists.setStatus(user, ids, st(), '2026-11-21', new Date(), undefined));
  await t('findMany+setStatus in txn', () => atomic.run(async (s) => { await lists.findMany(user, ids, s); await lists.setStatus(user, ids, st(), '2026-11-21', new Date(), s); }));
  await t('empty txn', () => atomic.run(async () => undefined));
  const col = c.db!.collection('list_entries');
  await t('updateMany plain $set', () => col.updateMany({ user_id: user, item_id: { $in: ids } }, { $set: { status: st(), updated_at: new Date() } }));
  await t('updateMany $set status only', () => col.updateMany({ user_id: user, item_id: { $in: ids } }, { $set: { status: st() } }));
  await t('updateMany notes only (non-indexed)', () => col.updateMany({ user_id: user, item_id: { $in: ids } }, { $set: { notes: String(k++) } }));
  await t('find $in 500', () => col.find({ user_id: user, item_id: { $in: ids } }).toArray());
  await seeder.close();
  await c.dropDatabase();
  await c.close();
}
main();
