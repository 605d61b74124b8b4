// What the renderer may ask of main: the IPC contract's channels and events, nothing else.
import type { IpcChannel, IpcEvent, IpcEvents, IpcInput, IpcOutput } from '../../shared/ipc/contract';
import type { IpcError } from '../../shared/ipc/ipc-error';

export interface Bridge {
  /** Resolves with the channel's output; rejects with a BridgeCallError carrying main's code. */
  invoke<C extends IpcChannel>(channel: C, input: IpcInput<C>): Promise<IpcOutput<C>>;
  /** Returns the function that stops listening. */
  on<E extends IpcEvent>(event: E, listener: (payload: IpcEvents[E]) => void): () => void;
}

export class BridgeCallError extends Error {
  readonly code: string;

  constructor(error: IpcError) {
    super(error.message);
    this.name = 'BridgeCallError';
    this.code = error.code;
  }
}

export const BRIDGE_CLOSED_CODE = 'BRIDGE_CLOSED';
