import pino from 'pino';
import type { Hook, StoredEvent } from '../../domain/ports';
import type { EventQueue, EventStore, HookRateLimit, HookStore, PlayGuardStore } from '../../domain/store-ports';
import { overlapCounter } from '../../../test/overlap';
import { ReceiverService } from './receiver.service';

const hook: Hook = { id: 'h1', userId: 'u1', server: 'jellyfin', name: 'Jellyfin', usernames: [], threshold: 90, createdAt: new Date(0), lastEventAt: null };
const playedBody = JSON.stringify({ NotificationType: 'PlaybackStop', ItemType: 'Movie', Name: 'Heat', Year: 1995, PlayedToCompletion: true, NotificationUsername: 'ada' });

/** The receiver over stores kept in memory: what it stores, queues and logs. */
function receiverWith(touch: HookStore['touch'], now?: () => Date) {
  const stored: StoredEvent[] = [];
  const queued: string[] = [];
  const warnings: string[] = [];
  const events = {
    insert: async (input) => {
      const event: StoredEvent = { ...input, id: `e${stored.length + 1}`, status: 'pending' };
      stored.push(event);
      return event;
    },
    remove: async () => undefined,
  } as Partial<EventStore> as EventStore;
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
  const receiver = new ReceiverService({
    hooks: { touch } as Partial<HookStore> as HookStore,
    events,
    guards: { claim: async () => true } as Partial<PlayGuardStore> as PlayGuardStore,
    queue: { enqueue: async (id: string) => void queued.push(id) } as EventQueue,
    rateLimit: { take: async () => null } as HookRateLimit,
    logger,
    now,
  });
  return { receiver, stored, queued, warnings };
}

describe('the webhook receiver', () => {
  it('stores and queues a played event, and records when the hook last sent one', async () => {
    const touched: Date[] = [];
    const { receiver, stored, queued } = receiverWith(async (_id, at) => void touched.push(at));
    await expect(receiver.receive(hook, async () => playedBody)).resolves.toEqual({ outcome: 'queued' });
    expect(stored).toHaveLength(1);
    expect(queued).toEqual([stored[0]!.id]);
    expect(touched).toHaveLength(1);
  });

  it("writes the hook's last-event time once a second during a burst of events", async () => {
    const touched: Date[] = [];
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, 0, ms));
    let clock = at(400);
    const { receiver, stored } = receiverWith(async (_id, when) => void touched.push(when), () => clock);
    const body = (n: number) => JSON.stringify({ ...JSON.parse(playedBody), Name: `Film ${n}` });
    await receiver.receive({ ...hook, lastEventAt: at(0) }, async () => body(1));
    clock = at(1000);
    await receiver.receive({ ...hook, lastEventAt: at(0) }, async () => body(2));
    expect(stored).toHaveLength(2);
    expect(touched).toEqual([at(1000)]);
  });

  it('still accepts an event when the time of the last event cannot be recorded, and says so in a warning', async () => {
    const { receiver, stored, queued, warnings } = receiverWith(async () => {
      throw Object.assign(new Error('write conflict'), { code: 112 });
    });
    await expect(receiver.receive(hook, async () => playedBody)).resolves.toEqual({ outcome: 'queued' });
    expect(stored).toHaveLength(1);
    expect(queued).toEqual([stored[0]!.id]);
    expect(warnings).toEqual(['hook last event time not recorded']);
  });

  it('stores concurrent deliveries of one media through one hook one at a time, and of different media at once', async () => {
    const overlap = overlapCounter();
    const events = {
      insert: (input) => overlap.during(input.mediaKey, () => ({ ...input, id: `e-${input.deliveryKey}`, status: 'pending' }) as StoredEvent),
    } as Partial<EventStore> as EventStore;
    const receiver = new ReceiverService({
      hooks: { touch: async () => undefined } as Partial<HookStore> as HookStore,
      events,
      guards: { claim: async () => true } as Partial<PlayGuardStore> as PlayGuardStore,
      queue: { enqueue: async () => undefined } as EventQueue,
      rateLimit: { take: async () => null } as HookRateLimit,
      logger: pino({ level: 'silent' }),
    });
    const film = (name: string) => JSON.stringify({ ...JSON.parse(playedBody), Name: name });
    await Promise.all([...Array.from({ length: 6 }, () => receiver.receive(hook, async () => film('Heat'))), receiver.receive(hook, async () => film('Ronin'))]);
    expect(overlap.mostPerKey()).toEqual([1, 1]);
    expect(overlap.mostOfAll()).toBe(2);
  });
});
