import { z } from './zod';

/** A category as published by GET /api/v1/categories (API.md §4). */
export const CategoryRecordSchema = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/),
    name: z.string(),
    display_name: z.string(),
    description: z.string(),
    endpoint: z.string(),
    icon: z.string(),
  })
  .openapi('Category');

export type CategoryRecord = z.infer<typeof CategoryRecordSchema>;
