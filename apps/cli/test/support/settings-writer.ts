// A process that stores `count` credentials, one per server, for the config store's race test.
import { Settings } from '../../src/config/settings';

const [dir, name, count] = process.argv.slice(2);
const settings = new Settings({ XDG_CONFIG_HOME: dir });
for (let i = 0; i < Number(count); i += 1) {
  settings.saveCredential(`https://${name}-${i}.example.com`, {
    token: `mtp_${name}_${i}`,
    token_id: `${name}-${i}`,
    token_name: 'race',
    prefix: 'mtp_race',
    scopes: ['list:read'],
    expires_at: '2030-01-01T00:00:00.000Z',
    created_at: '2026-01-01T00:00:00.000Z',
    user: { id: 'u', username: name ?? '' },
  });
  if (i % 5 === 0) settings.setDefaultUrl(`https://${name}-${i}.example.com`);
}
