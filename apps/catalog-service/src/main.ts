import { runService } from '@mt/runtime';
import { catalogService } from './service';

runService(catalogService);
