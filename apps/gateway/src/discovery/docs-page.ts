import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path';

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
const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png'] as const;
/** Our Swagger UI configuration, as a file: the CSP allows no inline script. */
const INIT_SCRIPT_FILE = 'init.js';
export const DOCS_ASSETS = [...SWAGGER_UI_FILES, INIT_SCRIPT_FILE] as const;
export type DocsAsset = (typeof DOCS_ASSETS)[number];
const DOCS_PATH = '/api/v1/docs';
/** In asset URLs, so an upgrade of swagger-ui-dist is fetched anew despite long caching. */
const ASSETS_VERSION = (JSON.parse(readFileSync(path.join(ASSETS_DIR, 'package.json'), 'utf8')) as { version: string }).version;

/** The page's assets live next to it: /api/v1/docs/{asset}. */
const asset = (file: string) => `${DOCS_PATH}/${file}?v=${ASSETS_VERSION}`;

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
// The document is part of this script, and the script runs as soon as the page is parsed: the operations are
// on the page when it reports "loaded" (a headless screenshot taken at `load` shows them, not "Loading").
// persistAuthorization false: Swagger UI would keep the token in localStorage, where every script of the origin
// (the web app's too) could read it after the tab is closed; "Authorize" lasts as long as the page.
// operationsSorter: a tag's operations in the order the service declares them (`x-order`: searches and reads
// before writes), not grouped by URL as Swagger UI would list them.
const initScript = (documentJson: string) => `window.ui = SwaggerUIBundle({
  spec: ${documentJson},
  dom_id: '#swagger-ui',
  layout: 'BaseLayout',
  presets: [SwaggerUIBundle.presets.apis],
  deepLinking: true,
  validatorUrl: null,
  queryConfigEnabled: false,
  persistAuthorization: false,
  displayRequestDuration: true,
  operationsSorter: function (a, b) {
    var rank = function (op) {
      var order = op.getIn(['operation', 'x-order']);
      return typeof order === 'number' ? order : Number.MAX_SAFE_INTEGER;
    };
    return rank(a) - rank(b);
  }
});
`;

const withDocsHeaders = (res: Response, cacheControl: string) => {
  // Set by the route itself, so it replaces the policy helmet put on every response.
  res.setHeader('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
  res.setHeader('Cache-Control', cacheControl);
};

export function docsPageHtml(res: Response): void {
  withDocsHeaders(res, 'no-cache');
  res.type('html').send(PAGE);
}

/** `documentJson`: the merged OpenAPI document, which the configuration script carries. */
export async function sendDocsAsset(file: DocsAsset, res: Response, documentJson: () => Promise<string>): Promise<void> {
  if (file === INIT_SCRIPT_FILE) {
    // It carries the current document: revalidated on every load, like openapi.json.
    withDocsHeaders(res, 'no-cache');
    res.type('application/javascript').send(initScript(await documentJson()));
    return;
  }
  withDocsHeaders(res, 'public, max-age=86400');
  await new Promise<void>((resolve, reject) =>
    res.sendFile(path.join(ASSETS_DIR, file), { cacheControl: false }, (error) => (error ? reject(error) : resolve())),
  );
}
