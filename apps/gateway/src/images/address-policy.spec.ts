import { isPublicAddress } from './address-policy';

describe('isPublicAddress', () => {
  it.each(['93.184.215.14', '151.101.1.140', '2606:4700::6810:84e5', '::ffff:93.184.215.14'])('accepts the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc00::abcd',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::7f00:1',
  ])('refuses the loopback, private, link-local or reserved address %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['localhost', '', 'not-an-ip', '127.0.0.1.nip.io'])('refuses %j, which is no address at all', (text) => {
    expect(isPublicAddress(text)).toBe(false);
  });
});
