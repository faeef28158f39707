import { CategoryRecordSchema, z } from '@mt/contracts';

export const CategoryListSchema = z.array(CategoryRecordSchema).openapi('CategoryList', {
  description: 'Categories with at least one live instance, sorted by id',
});

// `additionalProperties: true` spelled out: zod-to-openapi would render the catch-all as `{ nullable: true }`.
const openObject = <S extends z.ZodRawShape>(shape: S) => z.looseObject(shape).openapi({ additionalProperties: true });

export const OpenApiDocumentSchema = openObject({ openapi: z.string().openapi({ example: '3.0.3' }), info: openObject({}), paths: openObject({}) })
  .openapi('OpenApiDocument', { description: 'An OpenAPI 3.0 document' });

// The probe bodies of docs/api.md "Probes", answered by every service (libs/shared/probes).
export const LivenessSchema = z.object({ status: z.literal('alive') }).openapi('Liveness');
export const StartedSchema = z.object({ status: z.literal('started') }).openapi('Started');
export const StartingSchema = z.object({ status: z.literal('starting') }).openapi('Starting');
export const HealthySchema = z
  .object({ status: z.literal('healthy'), database: z.literal('connected') })
  .openapi('Healthy');
export const UnhealthySchema = z
  .object({ status: z.literal('unhealthy'), error: z.literal('database unreachable') })
  .openapi('Unhealthy');
export const NotReadySchema = z
  .object({ status: z.literal('unhealthy'), error: z.enum(['database unreachable', 'shutting down', 'starting']) })
  .openapi('NotReady');

const UpstreamHealthSchema = openObject({ status: z.enum(['healthy', 'unhealthy']) }).openapi('UpstreamHealth', {
  description: "One upstream's health, with details",
});

const healthDetails = {
  service: z.string().openapi({ example: 'gateway' }),
  version: z.string().openapi({ example: '1.0.0' }),
  uptime_seconds: z.number().int().min(0),
  services: z
    .record(z.string(), UpstreamHealthSchema)
    .optional()
    .openapi({ description: "Gateway only: each upstream's health" }),
};

export const HealthReportSchema = HealthySchema.extend(healthDetails).openapi('HealthReport');
export const UnhealthyReportSchema = UnhealthySchema.extend(healthDetails).openapi('UnhealthyReport');
