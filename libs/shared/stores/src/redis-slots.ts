/** Redis Cluster's slot count: a key's slot is CRC16 (XMODEM) of its hash tag, or of the whole key, modulo this. */
export const REDIS_CLUSTER_SLOTS = 16384;

const CRC16_TABLE = Array.from({ length: 256 }, (_, byte) => {
  let crc = byte << 8;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  return crc;
});

/** The part of a key Redis Cluster hashes: the first non-empty `{…}`, else the whole key. */
function hashedPart(key: Buffer): Buffer {
  const open = key.indexOf('{');
  if (open < 0) return key;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.subarray(open + 1, close) : key;
}

/** The hash slot Redis Cluster assigns to `key` (the cluster specification's algorithm). */
export function hashSlot(key: string): number {
  let crc = 0;
  for (const byte of hashedPart(Buffer.from(key))) crc = ((crc << 8) & 0xffff) ^ (CRC16_TABLE[((crc >> 8) ^ byte) & 0xff] ?? 0);
  return crc % REDIS_CLUSTER_SLOTS;
}

/**
 * Groups `items` by the slot of their key, so a transaction per group runs on a cluster (which refuses a
 * MULTI across slots); on one server the items stay in one group.
 */
export function groupBySlot<T>(items: readonly T[], keyOf: (item: T) => string, cluster: boolean): T[][] {
  if (!cluster) return items.length ? [[...items]] : [];
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const slot = hashSlot(keyOf(item));
    groups.set(slot, [...(groups.get(slot) ?? []), item]);
  }
  return [...groups.values()];
}
