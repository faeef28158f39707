import { runService } from '@mt/runtime';
import { scrobbleService } from './composition/scrobble-service';

runService(scrobbleService);
