export default async function globalTeardown(): Promise<void> {
  const stores = globalThis.__MT_TEST_STORES__ ?? [];
  globalThis.__MT_TEST_STORES__ = undefined;
  await Promise.all(stores.map((store) => store.stop()));
}
