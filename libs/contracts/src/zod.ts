import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Every contract schema is built from this `z`, so `.openapi()` metadata is available everywhere.
extendZodWithOpenApi(z);

export { z };
