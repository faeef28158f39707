import type { RequestHandler, Response } from 'express';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path';
import { DISCOVERY_PATHS } from './gateway-openapi';

/**
 * The docs page talks to this origin only: its scripts, styles and the OpenAPI document come from the
 * gateway, "try it out" calls the gateway, and Swagger UI's inline SVG icons are data: URIs. No inline
 * script (the configuration is a served file), no external font, nothing may frame it.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const ASSETS_DIR = getAbsoluteFSPath();
/** The only files of swagger-ui-dist the gateway serves (its index.html would load the petstore). */
const SWAGGER_UI_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']);
/** Our Swagger UI configuration, as a file: the CSP allows no inline script. */
const INIT_SCRIPT_FILE = 'init.js';
/** In asset URLs, so an upgrade of swagger-ui-dist is fetched anew despite long caching. */
const ASSETS_VERSION = (JSON.parse(readFileSync(path.join(ASSETS_DIR, 'package.json'), 'utf8')) as { version: string }).version;

/** The page's assets live next to it: /api/v1/docs/{asset}. */
export const DOCS_ASSET_ROUTE = `${DISCOVERY_PATHS.docs}/:asset`;
const asset = (file: string) => `${DISCOVERY_PATHS.docs}/${file}?v=${ASSETS_VERSION}`;

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Media Tracker API</title>
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="icon" type="image/png" sizes="32x32" href="${asset('favicon-32x32.png')}">
<link rel="icon" type="image/png" sizes="16x16" href="${asset('favicon-16x16.png')}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset(INIT_SCRIPT_FILE)}"></script>
</body>
</html>
`;

// validatorUrl null: no badge fetched from validator.swagger.io. BaseLayout: no top bar to load other URLs.
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(DISCOVERY_PATHS.openapi)},
    dom_id: '#swagger-ui',
    layout: 'BaseLayout',
    presets: [SwaggerUIBundle.presets.apis],
    deepLinking: true,
    validatorUrl: null,
    queryConfigEnabled: false,
    persistAuthorization: true,
    displayRequestDuration: true
  });
});
`;

const withDocsHeaders = (res: Response, cacheControl: string) => {
  // Set by the route itself, so it replaces the policy helmet put on every response.
  res.setHeader('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
  res.setHeader('Cache-Control', cacheControl);
};

export const serveDocsPage: RequestHandler = (_req, res) => {
  withDocsHeaders(res, 'no-cache');
  res.type('html').send(PAGE);
};

/** Unknown assets skip the route (`next('route')`), so they end as the usual 404 payload. */
export const serveDocsAsset: RequestHandler = (req, res, next) => {
  const file = String(req.params['asset']);
  if (file === INIT_SCRIPT_FILE) {
    withDocsHeaders(res, 'public, max-age=3600');
    res.type('application/javascript').send(INIT_SCRIPT);
    return;
  }
  if (!SWAGGER_UI_FILES.has(file)) return next('route');
  withDocsHeaders(res, 'public, max-age=86400');
  res.sendFile(path.join(ASSETS_DIR, file), { cacheControl: false }, (error) => {
    if (error) next(error);
  });
};
