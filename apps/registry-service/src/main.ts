import { runService } from '@mt/runtime';
import { registryService } from './service';

runService(registryService);
