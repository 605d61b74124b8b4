// The only bridge between the sandboxed renderer and main: one invoke and one event stream,
// carrying the channels of shared/ipc/contract.ts. Main checks every call's sender and input.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';

contextBridge.exposeInMainWorld('tradingBridge', {
  invoke: (channel: string, input: unknown): Promise<unknown> =>
    ipcRenderer.invoke('bridge:invoke', channel, input),
  onEvent: (listener: (event: string, payload: unknown) => void): (() => void) => {
    const forward = (_event: IpcRendererEvent, name: string, payload: unknown) => listener(name, payload);
    ipcRenderer.on('bridge:event', forward);
    return () => ipcRenderer.removeListener('bridge:event', forward);
  },
});
