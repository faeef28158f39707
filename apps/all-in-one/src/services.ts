import { hostedService, type HostedService } from '@mt/runtime';
import { authService } from '../../auth-service/src/service';
import { catalogService } from '../../catalog-service/src/composition/catalog-service';
import { gatewayService } from '../../gateway/src/service';
import { registryService } from '../../registry-service/src/service';
import { scrobbleService } from '../../scrobble-service/src/composition/scrobble-service';
import type { HostedApp, PlannedService } from './plan';

/**
 * Shutdown order, front to back as the launcher stops separate processes: the gateway first (no new traffic),
 * then the catalogs, auth and scrobble (they deregister from the registry), the registry last.
 */
const STOP_WAVE: Record<HostedApp, number> = { gateway: 0, 'catalog-service': 1, 'auth-service': 1, 'scrobble-service': 1, 'registry-service': 2 };

/** The service of a plan entry, with its own environment, for the host to run. */
export function hosted({ name, app, env }: PlannedService): HostedService {
  const wave = STOP_WAVE[app];
  switch (app) {
    case 'gateway':
      return hostedService(name, gatewayService, env, wave);
    case 'auth-service':
      return hostedService(name, authService, env, wave);
    case 'registry-service':
      return hostedService(name, registryService, env, wave);
    case 'catalog-service':
      return hostedService(name, catalogService, env, wave);
    case 'scrobble-service':
      return hostedService(name, scrobbleService, env, wave);
  }
}
