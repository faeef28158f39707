import { runService } from '@mt/runtime';
import { authService } from './service';

runService(authService);
