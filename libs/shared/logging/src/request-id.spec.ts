import { resolveRequestId } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('resolveRequestId', () => {
  it('keeps a client id of 1 to 128 visible ASCII characters', () => {
    for (const id of ['a', 'req-1', '~'.repeat(128), '{"x":1}']) expect(resolveRequestId(id)).toBe(id);
  });

  it('replaces anything else with a fresh UUID', () => {
    for (const id of [undefined, '', 'x'.repeat(129), 'with space', 'tab\there', 'é', 'line\nbreak', ['a', 'b']]) {
      expect(resolveRequestId(id)).toMatch(UUID);
    }
  });
});
