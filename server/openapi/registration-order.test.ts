import type { Tsoa } from '@tsoa/runtime';
import type { Router } from 'express';
import { describe, expect, it } from 'vitest';
import { RegisterRoutes } from '../generated/routes';
import { inRegistrationOrder } from './registration-order';

/** The routes tsoa registers, in order: "GET /api/v1/tasks/:id". */
function registered(): { method: string; path: string }[] {
  const routes: { method: string; path: string }[] = [];
  const record = (method: string) => (routePath: string) => routes.push({ method, path: routePath });
  const router = { get: record('GET'), post: record('POST'), put: record('PUT'), patch: record('PATCH'), delete: record('DELETE') };
  RegisterRoutes(router as unknown as Router);
  return routes;
}

const pattern = (routePath: string) => new RegExp(`^${routePath.split(/(:\w+)/).map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`, 'i');

describe('route registration order', () => {
  it('no fixed path is taken by a route with parameters registered before it (GET /tasks/cost-spikes before GET /tasks/{id})', () => {
    const routes = registered();
    expect(routes.length).toBeGreaterThan(200);
    const shadowed = routes.flatMap((route, i) => {
      if (route.path.includes(':')) return [];
      const earlier = routes.slice(0, i).find((r) => r.method === route.method && pattern(r.path).test(route.path));
      return earlier ? [`${route.method} ${route.path} is served by ${earlier.path}`] : [];
    });
    expect(shadowed).toEqual([]);
    expect(routes.findIndex((r) => r.method === 'GET' && r.path === '/api/v1/tasks/cost-spikes')).toBeLessThan(routes.findIndex((r) => r.method === 'GET' && r.path === '/api/v1/tasks/:id'));
  });

  it('puts the cost guard controllers first and keeps the order of the rest', () => {
    const controller = (name: string, location: string) => ({ name, location, methods: [], path: '' }) as Tsoa.Controller;
    const metadata = {
      referenceTypeMap: {},
      controllers: [controller('Tasks', 'server/api/tasks/TasksController.ts'), controller('Spikes', 'server/api/cost-guard/TaskCostSpikeController.ts'), controller('Cost', 'server/api/cost/CostController.ts')],
    };
    expect(inRegistrationOrder(metadata).controllers.map((c) => c.name)).toEqual(['Spikes', 'Tasks', 'Cost']);
    expect(metadata.controllers.map((c) => c.name)).toEqual(['Tasks', 'Spikes', 'Cost']);
  });
});
