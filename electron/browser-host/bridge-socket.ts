// One browser tab's socket is one window of the app core: calls go to the router, the window's
// events come back, and closing the socket closes the window.
import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { IPC_ERROR_CODES } from '../../shared/ipc/ipc-error';
import type { AppCore } from '../core/app/app-core';

/** A call from the renderer; the answer carries the same id. */
const bridgeCallSchema = z.strictObject({
  id: z.union([z.string().max(64), z.number().int()]),
  channel: z.string().max(128),
  input: z.unknown().optional(),
});

/** The tab was hidden or shown: a hidden tab's polls stop asking the exchange. */
const visibilitySchema = z.strictObject({ visible: z.boolean() });

/** Policy violation: the page sent something that is not a bridge call. */
const MALFORMED_MESSAGE_CLOSE_CODE = 1008;

export function serveBridgeSocket(socket: WebSocket, core: AppCore, pageUrl: string): void {
  const windowId = randomUUID();
  const sender = { frameUrl: pageUrl, isMainFrame: true, windowId };
  const send = (message: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const stopEvents = core.events.subscribe(windowId, (event, payload) => send({ event, payload }));

  socket.on('message', (data, isBinary) => {
    const message = isBinary ? null : parseMessage(data.toString());
    if (message !== null && 'visible' in message) {
      core.setWindowVisible(windowId, message.visible);
      return;
    }
    const call = message;
    if (call === null) {
      socket.close(MALFORMED_MESSAGE_CLOSE_CODE, 'expected {"id","channel","input"} as JSON text');
      return;
    }
    core.router.handle(call.channel, call.input, sender).then(
      (result) => send({ id: call.id, result }),
      (error: unknown) =>
        send({
          id: call.id,
          result: {
            ok: false,
            error: {
              code: IPC_ERROR_CODES.internal,
              message: error instanceof Error ? error.message : String(error),
            },
          },
        }),
    );
  });
  socket.on('close', () => {
    stopEvents();
    core.windowClosed(windowId);
  });
}

function parseMessage(
  text: string,
): z.output<typeof bridgeCallSchema> | z.output<typeof visibilitySchema> | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const call = bridgeCallSchema.safeParse(json);
  if (call.success) return call.data;
  const visibility = visibilitySchema.safeParse(json);
  return visibility.success ? visibility.data : null;
}
