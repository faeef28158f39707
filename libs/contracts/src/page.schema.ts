import { z } from './zod';

/** The page object of docs/api.md "Conventions". */
export interface Page<T> {
  data: T[];
  page: number;
  limit: number;
  total: number;
  total_pages: number;
}

/** The page object of docs/api.md "Conventions", as a schema (validation and the OpenAPI document). */
export const pageSchema = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      data: z.array(item),
      page: z.number().int().min(1),
      limit: z.number().int().min(1).max(100),
      total: z.number().int().min(0),
      total_pages: z.number().int().min(0),
    })
    .openapi(name);

export const MessageSchema = z.object({ message: z.string() }).openapi('Message');
