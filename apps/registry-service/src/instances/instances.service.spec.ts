import { silentLogger } from '@mt/testing';
import { categoryRecord, sampleRegistration } from '../../test/registration-fixtures';
import type { StoredInstance } from './instances.repository';
import { buildRouteTable } from './instances.service';

const stored = (instanceId: string, registration: object, registeredAtMs = 1000): StoredInstance => ({
  instanceId,
  registrationJson: JSON.stringify(registration),
  registeredAtMs,
});

describe('buildRouteTable', () => {
  it('groups instances by category, both sorted', () => {
    const table = buildRouteTable(
      [
        stored('m-2', sampleRegistration('movies', 'http://m2:1')),
        stored('b-1', sampleRegistration('books', 'http://b1:1')),
        stored('m-1', sampleRegistration('movies', 'http://m1:1')),
      ],
      silentLogger(),
    );
    expect(table.categories.map((c) => [c.category.id, c.instances.map((i) => i.instance_id)])).toEqual([
      ['books', ['b-1']],
      ['movies', ['m-1', 'm-2']],
    ]);
    expect(table.categories[1]!.instances[0]).toEqual({ instance_id: 'm-1', base_url: 'http://m1:1', version: '1.0.0' });
  });

  it('takes the category record and fragment from the latest registration, ties broken by instance id', () => {
    const older = sampleRegistration('movies', 'http://a:1', '1.0.0');
    const newer = { ...sampleRegistration('movies', 'http://b:1', '2.0.0'), category: { ...categoryRecord('movies'), description: 'v2' } };
    const tie = { ...sampleRegistration('movies', 'http://c:1', '2.0.0'), category: { ...categoryRecord('movies'), description: 'v2-tie' } };
    expect(buildRouteTable([stored('m-b', newer, 2000), stored('m-a', older, 1000)], silentLogger()).categories[0]!.category.description).toBe('v2');
    expect(buildRouteTable([stored('m-c', tie, 2000), stored('m-b', newer, 2000)], silentLogger()).categories[0]!.category.description).toBe('v2-tie');
  });

  it('skips a stored registration it cannot read', () => {
    const table = buildRouteTable(
      [{ instanceId: 'bad', registrationJson: '{not json', registeredAtMs: 1 }, stored('wrong', { category: 'x' }), stored('b-1', sampleRegistration('books', 'http://b:1'))],
      silentLogger(),
    );
    expect(table.categories.flatMap((c) => c.instances.map((i) => i.instance_id))).toEqual(['b-1']);
  });
});
