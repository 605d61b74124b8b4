// The bridge over the browser host's WebSocket: calls carry an id and wait for the answer with
// that id; every other message is a pushed event.
import type { IpcChannel, IpcEvent, IpcEvents, IpcInput, IpcOutput } from '../../shared/ipc/contract';
import type { IpcResult } from '../../shared/ipc/ipc-error';
import { BRIDGE_CLOSED_CODE, BridgeCallError } from './bridge';
import type { Bridge } from './bridge';

type Listener = (payload: unknown) => void;

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export function createSocketBridge(socket: WebSocket): Bridge {
  const pending = new Map<number, PendingCall>();
  const listeners = new Map<string, Set<Listener>>();
  const opened = new Promise<void>((resolve, reject) => {
    if (socket.readyState === WebSocket.OPEN) return resolve();
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('close', () => reject(closedError()), { once: true });
  });
  // A refused or dropped socket rejects the calls that wait; the unhandled first promise is not an error.
  opened.catch(() => {});
  let nextId = 1;

  socket.addEventListener('message', (message: MessageEvent) => {
    if (typeof message.data !== 'string') return;
    const parsed = JSON.parse(message.data) as {
      id?: number;
      result?: IpcResult<unknown>;
      event?: string;
      payload?: unknown;
    };
    if (typeof parsed.id === 'number' && parsed.result !== undefined) {
      const call = pending.get(parsed.id);
      pending.delete(parsed.id);
      if (parsed.result.ok) call?.resolve(parsed.result.value);
      else call?.reject(new BridgeCallError(parsed.result.error));
      return;
    }
    if (typeof parsed.event === 'string') {
      for (const listener of listeners.get(parsed.event) ?? []) listener(parsed.payload);
    }
  });
  socket.addEventListener('close', () => {
    for (const call of pending.values()) call.reject(closedError());
    pending.clear();
  });
  // A hidden tab stops its polls (main keeps polling only what a visible window needs).
  const reportVisibility = () => {
    if (socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ visible: document.visibilityState === 'visible' }));
    }
  };
  document.addEventListener('visibilitychange', reportVisibility);
  socket.addEventListener('close', () => document.removeEventListener('visibilitychange', reportVisibility), {
    once: true,
  });

  return {
    async invoke<C extends IpcChannel>(channel: C, input: IpcInput<C>): Promise<IpcOutput<C>> {
      await opened;
      const id = nextId++;
      const answer = new Promise<unknown>((resolve, reject) => pending.set(id, { resolve, reject }));
      socket.send(JSON.stringify({ id, channel, input }));
      return (await answer) as IpcOutput<C>;
    },
    on<E extends IpcEvent>(event: E, listener: (payload: IpcEvents[E]) => void): () => void {
      const untyped = listener as Listener;
      let set = listeners.get(event);
      if (set === undefined) {
        set = new Set();
        listeners.set(event, set);
      }
      set.add(untyped);
      return () => set.delete(untyped);
    },
  };
}

function closedError(): BridgeCallError {
  return new BridgeCallError({
    code: BRIDGE_CLOSED_CODE,
    message:
      'The connection to the terminal closed. Reload the page; if it stays closed, restart `npm run web`.',
  });
}
