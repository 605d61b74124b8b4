// Errors cross the IPC boundary as plain data: a code to branch on and a message a person can
// act on. Exchange codes (e.g. 45110) pass through unchanged; the router's own codes are these.

export interface IpcError {
  readonly code: string;
  readonly message: string;
}

export const IPC_ERROR_CODES = {
  unknownChannel: 'IPC_UNKNOWN_CHANNEL',
  foreignSender: 'IPC_FOREIGN_SENDER',
  invalidInput: 'IPC_INVALID_INPUT',
  internal: 'IPC_INTERNAL',
} as const;

export type IpcResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: IpcError };
