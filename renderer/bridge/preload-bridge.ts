// The bridge inside Electron: the preload script's `window.tradingBridge`, which forwards each call
// to main over IPC and main's events back. Same Bridge as over the browser host's socket.
import type { IpcChannel, IpcEvent, IpcEvents, IpcInput, IpcOutput } from '../../shared/ipc/contract';
import type { IpcResult } from '../../shared/ipc/ipc-error';
import { BridgeCallError } from './bridge';
import type { Bridge } from './bridge';

/** What electron/preload.ts exposes. */
export interface PreloadApi {
  invoke(channel: string, input: unknown): Promise<unknown>;
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
}

declare global {
  interface Window {
    tradingBridge?: PreloadApi;
  }
}

export function createPreloadBridge(api: PreloadApi): Bridge {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  api.onEvent((event, payload) => {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  });
  return {
    async invoke<C extends IpcChannel>(channel: C, input: IpcInput<C>): Promise<IpcOutput<C>> {
      const result = (await api.invoke(channel, input)) as IpcResult<unknown>;
      if (!result.ok) throw new BridgeCallError(result.error);
      return result.value as IpcOutput<C>;
    },
    on<E extends IpcEvent>(event: E, listener: (payload: IpcEvents[E]) => void): () => void {
      const untyped = listener as (payload: unknown) => void;
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
