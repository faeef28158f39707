import { silentLogger } from '@mt/testing';
import { categoryRecord, sampleRegistration } from '@mt/registry-testing';
import type { StoredInstance, StoredService } from './instances.repository';
import { buildRouteTable } from './instances.service';

const stored = (instanceId: string, registration: object, registeredAtMs = 1000): StoredInstance => ({
  instanceId,
  registrationJson: JSON.stringify(registration),
  registeredAtMs,
});
const known = (service: string, registration: object): StoredService => ({ service, registrationJson: JSON.stringify(registration), updatedAtMs: 1 });
const build = (instances: StoredInstance[], services: StoredService[] = []) => buildRouteTable(instances, services, silentLogger());

describe('buildRouteTable', () => {
  it('groups instances by service, both sorted', () => {
    const { table } = build([
      stored('m-2', sampleRegistration('movies', 'http://m2:1')),
      stored('b-1', sampleRegistration('books', 'http://b1:1')),
      stored('m-1', sampleRegistration('movies', 'http://m1:1')),
    ]);
    expect(table.services.map((c) => [c.service, c.instances.map((i) => i.instance_id)])).toEqual([
      ['books', ['b-1']],
      ['movies', ['m-1', 'm-2']],
    ]);
    expect(table.services[1]!.instances[0]).toEqual({
      instance_id: 'm-1',
      base_url: 'http://m1:1',
      version: '1.0.0',
      manifest_digest: sampleRegistration('movies', 'x').manifest.digest,
    });
  });

  it('takes the category record, manifest and fragment from the latest registration, ties broken by instance id', () => {
    const older = sampleRegistration('movies', 'http://a:1', '1.0.0');
    const newer = { ...sampleRegistration('movies', 'http://b:1', '2.0.0'), category: { ...categoryRecord('movies'), description: 'v2' } };
    const tie = { ...sampleRegistration('movies', 'http://c:1', '2.0.0'), category: { ...categoryRecord('movies'), description: 'v2-tie' } };
    expect(build([stored('m-b', newer, 2000), stored('m-a', older, 1000)]).table.services[0]!.category!.description).toBe('v2');
    expect(build([stored('m-c', tie, 2000), stored('m-b', newer, 2000)]).table.services[0]!.category!.description).toBe('v2-tie');
  });

  it('reports instances of one service that disagree on their manifest, and routes by the newest', () => {
    const v1 = sampleRegistration('movies', 'http://a:1', '1.0.0');
    const v2 = sampleRegistration('movies', 'http://b:1', '2.0.0', true);
    const { table, mismatches } = build([stored('m-a', v1, 1000), stored('m-b', v2, 2000)]);
    expect(table.services[0]!.manifest_mismatch).toBe(true);
    expect(table.services[0]!.manifest).toEqual(v2.manifest);
    expect(mismatches).toEqual([{ service: 'movies', digests: { [v1.manifest.digest]: ['m-a'], [v2.manifest.digest]: ['m-b'] } }]);
  });

  it('keeps a known service whose instances are all gone, without instances', () => {
    const { table } = build([stored('b-1', sampleRegistration('books', 'http://b:1'))], [known('movies', sampleRegistration('movies', 'http://m:1'))]);
    expect(table.services.map((s) => [s.service, s.instances.length])).toEqual([
      ['books', 1],
      ['movies', 0],
    ]);
  });

  it('skips a stored registration it cannot read', () => {
    const { table } = build([
      { instanceId: 'bad', registrationJson: '{not json', registeredAtMs: 1 },
      stored('wrong', { category: 'x' }),
      stored('b-1', sampleRegistration('books', 'http://b:1')),
    ]);
    expect(table.services.flatMap((c) => c.instances.map((i) => i.instance_id))).toEqual(['b-1']);
  });
});
