// Push events to windows: each window registers one listener; poll data goes to the window that
// subscribed, outbox changes to every window.
import type { IpcEvent, IpcEvents } from '../../../shared/ipc/contract';

export type WindowEventListener = <E extends IpcEvent>(event: E, payload: IpcEvents[E]) => void;

export interface WindowEvents {
  /** Returns the function that stops the window's events. */
  subscribe(windowId: string, listener: WindowEventListener): () => void;
}

export class WindowEventBus implements WindowEvents {
  private readonly listeners = new Map<string, Set<WindowEventListener>>();

  subscribe(windowId: string, listener: WindowEventListener): () => void {
    let set = this.listeners.get(windowId);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(windowId, set);
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(windowId);
      current?.delete(listener);
      if (current?.size === 0) this.listeners.delete(windowId);
    };
  }

  emitTo<E extends IpcEvent>(windowId: string, event: E, payload: IpcEvents[E]): void {
    for (const listener of this.listeners.get(windowId) ?? []) deliver(listener, event, payload);
  }

  emitToAll<E extends IpcEvent>(event: E, payload: IpcEvents[E]): void {
    for (const set of this.listeners.values()) for (const listener of set) deliver(listener, event, payload);
  }

  clear(): void {
    this.listeners.clear();
  }
}

/** A window that fails to take an event (closing, crashed) must not stop the others getting it. */
function deliver<E extends IpcEvent>(listener: WindowEventListener, event: E, payload: IpcEvents[E]): void {
  try {
    listener(event, payload);
  } catch {
    // The host drops the window when it closes; nothing to do here.
  }
}
