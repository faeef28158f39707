import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * helmet's defaults with a CSP for a JSON API: nothing may load, nothing may frame it. The docs page sets
 * its own, looser CSP on its responses.
 */
export const securityHeaders = (): RequestHandler =>
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    frameguard: { action: 'deny' },
  });
