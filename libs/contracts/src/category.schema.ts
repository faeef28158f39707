import { z } from './zod';

/** A category as published by GET /api/v1/categories (docs/api.md "Discovering the API"). */
export const CategoryRecordSchema = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/),
    name: z.string(),
    display_name: z.string(),
    description: z.string(),
    endpoint: z.string(),
    icon: z.string(),
    // Optional in the contract so that instances registered before these fields existed stay valid during a
    // rolling upgrade; every current catalog instance sends both.
    progress_unit: z
      .enum(['minutes', 'episodes', 'pages'])
      .optional()
      .openapi({ description: 'What a list entry\'s `progress` counts in this category' }),
    status_labels: z
      .object({ watching: z.string(), completed: z.string(), on_hold: z.string(), dropped: z.string(), plan_to_watch: z.string() })
      .optional()
      .openapi({
        description: 'How to show each list status in this category (e.g. books: `watching` → "Reading"); the stored values stay the five statuses',
        example: { watching: 'Reading', completed: 'Read', on_hold: 'On hold', dropped: 'Abandoned', plan_to_watch: 'Want to read' },
      }),
    providers: z
      .array(z.string())
      .optional()
      .openapi({ description: 'The metadata providers filling this category (`[]` when none is configured): `GET /api/v1/{category}/providers/search` searches them', example: ['tmdb'] }),
  })
  .openapi('Category');

export type CategoryRecord = z.infer<typeof CategoryRecordSchema>;
