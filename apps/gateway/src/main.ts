import { runService } from '@mt/runtime';
import { gatewayService } from './service';

runService(gatewayService);
