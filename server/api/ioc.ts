import type { Request } from 'express';
import type { IocContainer, IocContainerFactory } from '@tsoa/runtime';
import type { Services } from '../services';

export function servicesOf(req: Request): Services {
  return req.app.locals.services as Services;
}

/** tsoa builds each controller per request with the running desk's services. */
export const iocContainer: IocContainerFactory<Request> = (req: Request): IocContainer => ({
  get<T>(controller: unknown): T {
    const Ctor = controller as new (services: Services) => T;
    return new Ctor(servicesOf(req));
  },
});
