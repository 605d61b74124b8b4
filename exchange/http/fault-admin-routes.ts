import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { registerAdminRoute } from './admin';
import type { AdminOptions } from './admin';
import { faultSpecSchema } from './faults';
import type { FaultRegistry } from './faults';

/**
 * `POST {basePath}` arms a fault (body: path, count, kind, delayMs), `GET {basePath}` lists the
 * armed ones, `DELETE {basePath}` disarms them all.
 */
export function registerFaultAdminRoutes(
  app: FastifyInstance,
  faults: FaultRegistry,
  options: AdminOptions,
  basePath = '/admin/faults',
): void {
  registerAdminRoute(
    app,
    { method: 'POST', path: basePath, request: faultSpecSchema },
    ({ params }) => faults.add(params),
    options,
  );
  registerAdminRoute(
    app,
    { method: 'GET', path: basePath, request: z.object({}) },
    () => faults.list(),
    options,
  );
  registerAdminRoute(
    app,
    { method: 'DELETE', path: basePath, request: z.object({}) },
    () => {
      const cleared = faults.list().length;
      faults.clear();
      return { cleared };
    },
    options,
  );
}
