import path from 'node:path';
import type { Tsoa } from '@tsoa/runtime';

/**
 * Express serves the first route registered that matches, and tsoa registers controllers in the
 * order it found their files (the glob's, then TypeScript's import order). The cost guard's lists
 * and acks sit under the areas' paths (GET /tasks/cost-spikes beside GET /tasks/{id}), so its
 * controllers are registered first, here, once; the rest keep tsoa's order.
 */
const REGISTERED_FIRST = [path.join('server', 'api', 'cost-guard') + path.sep];

export function inRegistrationOrder(metadata: Tsoa.Metadata): Tsoa.Metadata {
  const rank = (c: Tsoa.Controller) => {
    const i = REGISTERED_FIRST.findIndex((dir) => path.normalize(c.location).includes(dir));
    return i === -1 ? REGISTERED_FIRST.length : i;
  };
  // Array.prototype.sort is stable: controllers of one rank keep their order.
  return { ...metadata, controllers: [...metadata.controllers].sort((a, b) => rank(a) - rank(b)) };
}
