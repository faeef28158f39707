import express, { type Request, type RequestHandler, type Response } from 'express';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { DOCS_CONTENT_SECURITY_POLICY } from '../discovery/docs-page';
import { encodedVariant } from './encoded-variant';

/** The web app loads nothing from another origin either: the docs page's policy, word for word. */
export const WEB_CONTENT_SECURITY_POLICY = DOCS_CONTENT_SECURITY_POLICY;

/** Vite's output folder of content-hashed files: a changed file gets a new name, so it may be cached for good. */
const HASHED_DIR = 'assets';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html and unhashed files (favicon): revalidated on every load, so a new build is seen at once. */
const REVALIDATE = 'no-cache';
/** Metrics labels: never the raw path. */
const ASSET_ROUTE = '/assets/*';
const PAGE_ROUTE = '/ (web app)';

const NOT_BUILT_PAGE = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Media Tracker</title></head>
<body>
<h1>Media Tracker</h1>
<p>The web app has not been built. Run <code>npm run build</code> (or <code>npm start</code>), then reload.</p>
<p>The API is at <a href="/api/v1/categories">/api/v1</a>, its documentation at <a href="/api/v1/docs">/api/v1/docs</a>.</p>
</body>
</html>
`;

/** `/api`, `/api/…` in any case: the API's own 404/405 answers stay JSON, whatever the client accepts. */
const isApiPath = (urlPath: string) => /^\/api(\/|$)/i.test(urlPath);
/** A path whose last segment looks like a file (`/app.js`, `/favicon.ico`) is never a client-side route. */
const looksLikeFile = (urlPath: string) => /\.[^/]*$/.test(urlPath);
/**
 * Only a browser navigating wants the app shell: it asks for text/html by name. `curl`, `fetch()` and API
 * clients send `*\/*` or JSON, and keep getting the JSON 404 for a path nobody serves (`/internal/jwks`).
 */
const wantsHtml = (req: Request) => /\btext\/html\b/i.test(req.headers.accept ?? '');
/** A client that names JSON (`application/json`, `application/problem+json`) wants the API's answer. */
const asksForJson = (req: Request) => /\bapplication\/([\w.-]+\+)?json\b/i.test(req.headers.accept ?? '');
/**
 * The root is the app's address (the start banner prints it): every client but one asking for JSON gets
 * the app there, `curl` included; elsewhere only a browser navigating does.
 */
const wantsShell = (req: Request) => wantsHtml(req) || (req.path === '/' && !asksForJson(req));

const setWebHeaders = (res: Response, cacheControl: string, route: string) => {
  // Replaces the API's "nothing may load" policy that helmet put on every response.
  res.setHeader('Content-Security-Policy', WEB_CONTENT_SECURITY_POLICY);
  res.setHeader('Cache-Control', cacheControl);
  res.locals['routeTemplate'] = route;
};

export interface WebAppOptions {
  /** The built app (`dist/apps/web`); when it holds no index.html, `/` answers a short note with 404. */
  dir: string | undefined;
}

/**
 * The single-page app at `/`: built files as they are (hashed assets cached for a year, the rest revalidated),
 * brotli/gzip variants the build wrote beside them when the client takes them, and `index.html` for every
 * other page a browser navigates to, so client-side routes survive a reload. GET and HEAD only; `/api/…`,
 * the probes and `/metrics` (answered before this) are untouched.
 */
export function webApp(options: WebAppOptions): RequestHandler {
  const dir = options.dir ? path.resolve(options.dir) : undefined;
  const indexFile = dir && path.join(dir, 'index.html');
  const serveFile = dir
    ? express.static(dir, {
        index: false,
        redirect: false,
        dotfiles: 'ignore',
        cacheControl: false,
        fallthrough: true,
        setHeaders: (res, filePath) => {
          const hashed = path.relative(dir, filePath).split(path.sep)[0] === HASHED_DIR;
          setWebHeaders(res, hashed ? IMMUTABLE : REVALIDATE, hashed ? ASSET_ROUTE : PAGE_ROUTE);
        },
      })
    : undefined;

  const sendShell = async (res: Response) => {
    const built = indexFile && (await stat(indexFile).then((s) => s.isFile(), () => false));
    if (!built) {
      setWebHeaders(res, REVALIDATE, PAGE_ROUTE);
      res.status(404).type('html').send(NOT_BUILT_PAGE);
      return;
    }
    setWebHeaders(res, REVALIDATE, PAGE_ROUTE);
    await new Promise<void>((resolve, reject) =>
      res.sendFile(indexFile, { cacheControl: false }, (error) => (error ? reject(error) : resolve())),
    );
  };

  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isApiPath(req.path)) return next();
    const shellOrNext = () => {
      if (!wantsShell(req) || looksLikeFile(req.path)) return next();
      sendShell(res).catch(next);
    };
    if (!dir || !serveFile) return shellOrNext();
    encodedVariant(req, dir).then((variant) => {
      if (req.path.startsWith(`/${HASHED_DIR}/`)) res.setHeader('Vary', 'Accept-Encoding');
      if (!variant) return serveFile(req, res, shellOrNext);
      const plainUrl = req.url;
      // Typed by the plain file's name: express.static keeps a Content-Type that is already set.
      res.type(path.extname(req.path));
      res.setHeader('Content-Encoding', variant.encoding);
      req.url = variant.url;
      serveFile(req, res, () => {
        // Gone since it was found (a rebuild): answer as for the plain file.
        res.removeHeader('Content-Encoding');
        res.removeHeader('Content-Type');
        req.url = plainUrl;
        serveFile(req, res, shellOrNext);
      });
    }, next);
  };
}
