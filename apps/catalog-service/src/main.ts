import { runCatalogService } from './composition/catalog-service';

runCatalogService();
