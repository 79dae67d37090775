import type { FastifyInstance } from 'fastify';
import { HttpError } from '../errors.js';

/**
 * A POST without a body is accepted whatever its Content-Type says (GoTrue's clients, such as
 * Supabase's auth SDK, send `Content-Type: application/json` with no body to `/logout`): an empty
 * JSON body is no body, and an empty body of a type no parser knows is no body either. A route
 * that needs a body still refuses it with its schema's 400. A non-empty body of an unknown type
 * stays refused (415).
 */
export function acceptEmptyBodies(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    json(request, text, done);
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    if (body.length === 0) return done(null, undefined);
    done(new HttpError(415, `Unsupported Media Type: ${request.headers['content-type'] ?? ''}`.trim()), undefined);
  });
}
