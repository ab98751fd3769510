/**
 * Documents the error answers every operation shares, which come from the app rather than from
 * one controller: 401 from bearer auth, 400 and 413 from the JSON body parser of /api/v1, 422 from
 * validation, 404 for an id that matches nothing. An answer a controller documents itself wins.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const ERROR_BODY_REF = '#/components/schemas/ErrorBody';

/** The body limit of /api/v1 (server/app.ts JSON_BODY_LIMIT, checked by a test). */
export const DOCUMENTED_BODY_LIMIT = '1mb';
/** Operations with a larger limit ("method /path"; server/app.ts LARGE_BODY_LIMITS, checked by a test). */
export const DOCUMENTED_LARGE_BODY_LIMITS: Readonly<Record<string, string>> = { 'post /api/v1/workspace/import': '64mb' };

const isObj = (v: Json | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function errorResponse(description: string): Obj {
  return { description, content: { 'application/json': { schema: { $ref: ERROR_BODY_REF } } } };
}

export function addErrorResponses(doc: Obj): Obj {
  const schemas = isObj(doc.components) && isObj(doc.components.schemas) ? doc.components.schemas : {};
  if (!isObj(schemas.ErrorBody)) throw new Error('the OpenAPI document has no ErrorBody schema to point error responses at');
  const out = structuredClone(doc);
  const paths = isObj(out.paths) ? out.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObj(item) || !path.startsWith('/api/v1/')) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const responses: Obj = isObj(op.responses) ? { ...op.responses } : {};
      const add = (status: string, description: string) => {
        if (!(status in responses)) responses[status] = errorResponse(description);
      };
      const security = Array.isArray(op.security) ? op.security : [];
      const secured = security.length > 0 && security.every((req) => isObj(req) && Object.keys(req).length > 0);
      const params = Array.isArray(op.parameters) ? op.parameters.filter(isObj) : [];
      if (op.requestBody !== undefined) {
        add('400', 'The request body is not valid JSON; nothing changed');
        add('413', `The request body is larger than ${DOCUMENTED_LARGE_BODY_LIMITS[`${method} ${path.toLowerCase()}`] ?? DOCUMENTED_BODY_LIMIT}; nothing changed`);
      }
      if (secured) add('401', 'The bearer token is missing or wrong (`error: unauthorized`); nothing changed');
      if (params.some((p) => p.in === 'path')) add('404', 'No resource with that id (`error: <thing>_not_found`)');
      if (op.requestBody !== undefined || params.some((p) => p.in !== 'path')) {
        add('422', 'A field or parameter is invalid (`error: validation_failed`; `details` names each field); nothing changed');
      }
      op.responses = responses;
    }
  }
  return out;
}
