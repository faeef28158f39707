import { runService } from '@mt/runtime';
import { catalogService } from './composition/catalog-service';

runService(catalogService);
