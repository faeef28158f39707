import { ERROR_CATALOG } from '@mt/errors';
import { z } from './zod';

export const ErrorDetailSchema = z
  .object({ path: z.string(), message: z.string() })
  .openapi('ErrorDetail');

export const ErrorPayloadSchema = z
  .object({
    error: z.string().openapi({ example: 'username already taken' }),
    status: z.number().int().openapi({ example: 409 }),
    timestamp: z.string().openapi({ format: 'date-time' }),
    code: z.enum(Object.keys(ERROR_CATALOG) as [keyof typeof ERROR_CATALOG, ...(keyof typeof ERROR_CATALOG)[]]),
    request_id: z.string(),
    details: z.array(ErrorDetailSchema).optional(),
    existing_id: z.string().optional().openapi({ description: 'On a catalog duplicate (409): the id of the existing entry' }),
  })
  .openapi('Error', { description: 'The error payload of every component (docs/api.md, "Errors")' });
