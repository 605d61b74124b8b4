// Checks of the API's answers shared by the HTTP tests: success with its data, refusal with its
// code, and requests that wait out the rate limits instead of failing on them.
import { expect } from 'vitest';
import type { ClientResponse, SignedClient } from './signed-client';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The envelope of a success: HTTP 200, code 00000; answers its data. */
export function ok(response: ClientResponse): unknown {
  expect(response.status, response.text).toBe(200);
  expect(response.body?.code, response.text).toBe('00000');
  expect(response.body?.msg).toBe('success');
  return response.body?.data;
}

/** The envelope of a refusal with `code` and no data; answers its message. */
export function refused(response: ClientResponse, code: string, status = 400): string {
  expect(response.status, response.text).toBe(status);
  expect(response.body?.code, response.text).toBe(code);
  expect(response.body?.data).toBeNull();
  return response.body?.msg ?? '';
}

/** Limits count per second: a test that outruns one waits for the window instead of failing. */
export async function paced(send: () => Promise<ClientResponse>): Promise<ClientResponse> {
  for (let attempt = 0; attempt < 60; attempt++) {
    const response = await send();
    if (response.status !== 429) return response;
    await sleep(50);
  }
  throw new Error('still rate limited after 3 s');
}

/** A client that waits out the rate limits (a refused request never reached the engine). */
export function pacedClient(client: SignedClient): SignedClient {
  return {
    get: (path, query, options) => paced(() => client.get(path, query, options)),
    post: (path, body, options) => paced(() => client.post(path, body, options)),
    publicGet: (path, query) => paced(() => client.publicGet(path, query)),
    admin: (method, path, body, token) => client.admin(method, path, body, token),
  };
}
