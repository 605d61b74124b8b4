import type { FastifyInstance } from 'fastify';

/** Starts `app` on 127.0.0.1 with a port the system picks; returns its base URL. */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  return app.listen({ host: '127.0.0.1', port: 0 });
}
