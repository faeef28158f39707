import { errors } from '@mt/errors';
import { parseQuery } from '@mt/validation';
import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { IMAGES_PREFIX, parseImagePath } from './image-path';
import type { ImageService } from './image.service';

/** The metrics label of every image request: never the raw path. */
const ROUTE_TEMPLATE = `${IMAGES_PREFIX}{provider}/{path}`;
/** A provider's image path names one image for good (a new poster gets a new path). */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';
/**
 * Opened on its own, the image is a document: nothing in it may run, load or be framed; the browser's
 * image viewer may show it and style itself.
 */
export const IMAGE_CONTENT_SECURITY_POLICY = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox";

const ALLOWED_METHODS = ['GET', 'HEAD'];
/** An image path takes no parameters: like every operation, an unknown one is a 400 (and no cache key). */
const NO_QUERY = z.strictObject({});

const notModified = (req: Request, etag: string) =>
  (req.headers['if-none-match'] ?? '')
    .split(',')
    .some((candidate) => candidate.trim().replace(/^W\//, '') === etag || candidate.trim() === '*');

/**
 * `GET /api/v1/images/<provider>/<path>`: one of the configured providers' images, from this origin, so the
 * web app keeps `img-src 'self'`. Answered before the API's route decision: public, never authenticated or
 * rate limited, and every other request pays one prefix comparison for it.
 */
export function imagesRoute(service: ImageService): RequestHandler {
  return (req, res, next) => {
    if (!req.path.startsWith(IMAGES_PREFIX)) return next();
    res.locals['routeTemplate'] = ROUTE_TEMPLATE;
    if (!ALLOWED_METHODS.includes(req.method)) return next(errors.methodNotAllowed(ALLOWED_METHODS));
    try {
      parseQuery(NO_QUERY, req);
    } catch (error) {
      return next(error);
    }
    const target = parseImagePath(req.path);
    if (!target) return next(errors.notFound(`no image at ${req.path}`));
    service.image(target.provider, target.path).then(({ image, body }) => {
      const etag = `"${image.digest}"`;
      res.setHeader('Cache-Control', CACHE_CONTROL);
      res.setHeader('ETag', etag);
      res.setHeader('Content-Security-Policy', IMAGE_CONTENT_SECURITY_POLICY);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (notModified(req, etag)) {
        res.status(304).end();
        return;
      }
      res.setHeader('Content-Type', image.type);
      res.setHeader('Content-Length', body.length);
      res.status(200).end(req.method === 'HEAD' ? undefined : body);
    }, next);
  };
}
