// The one entry point for every IPC call, whether it came through Electron's ipcMain or the
// browser host's socket: checks the channel, the sender and the input before any handler runs,
// and turns every failure into plain data, so nothing throws across the boundary.
import type { z } from 'zod';
import { IPC_CHANNELS, isIpcChannel } from '../../../shared/ipc/contract';
import type { IpcChannel, IpcCheckedInput, IpcOutput } from '../../../shared/ipc/contract';
import { IPC_ERROR_CODES } from '../../../shared/ipc/ipc-error';
import type { IpcError, IpcResult } from '../../../shared/ipc/ipc-error';
import { ApiCallError } from '../api/api-call-error';

export interface IpcSender {
  /** URL of the frame that sent the message. */
  readonly frameUrl: string;
  readonly isMainFrame: boolean;
}

export type IpcHandlers = {
  readonly [C in IpcChannel]: (
    input: IpcCheckedInput<C>,
    sender: IpcSender,
  ) => Promise<IpcOutput<C>> | IpcOutput<C>;
};

export interface IpcRouterOptions {
  /** Origins of the app's own pages, e.g. `app://trading-terminal`, `http://127.0.0.1:5173`. */
  readonly allowedOrigins: readonly string[];
  /** Sees errors that were not expected (not an exchange or coded error) before they are masked. */
  readonly onUnexpectedError?: (channel: IpcChannel, error: unknown) => void;
}

export interface IpcRouter {
  handle(channel: string, rawInput: unknown, sender: IpcSender): Promise<IpcResult<unknown>>;
}

/** A handler's refusal with a code of its own and a message a person can act on. */
export class IpcRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'IpcRefusal';
  }
}

export function createIpcRouter(handlers: IpcHandlers, options: IpcRouterOptions): IpcRouter {
  const allowed = new Set(options.allowedOrigins.map((origin) => originOf(origin)));
  if (allowed.has(null) || allowed.size === 0) {
    throw new Error(
      `allowedOrigins must be absolute URLs such as app://trading-terminal; got ${JSON.stringify(options.allowedOrigins)}`,
    );
  }

  async function handle(channel: string, rawInput: unknown, sender: IpcSender): Promise<IpcResult<unknown>> {
    try {
      const refusal = senderRefusal(sender, allowed);
      if (refusal !== null) return { ok: false, error: refusal };
      if (!isIpcChannel(channel)) {
        return {
          ok: false,
          error: {
            code: IPC_ERROR_CODES.unknownChannel,
            message: `There is no IPC channel "${String(channel).slice(0, 80)}"; the window and the main process may be from different versions, restart the app.`,
          },
        };
      }
      const parsed = IPC_CHANNELS[channel].input.safeParse(rawInput);
      if (!parsed.success) return { ok: false, error: inputError(channel, parsed.error) };
      return { ok: true, value: await invoke(handlers, channel, parsed.data, sender) };
    } catch (error) {
      return { ok: false, error: toIpcError(error, channel, options.onUnexpectedError) };
    }
  }

  return { handle };
}

function invoke<C extends IpcChannel>(
  handlers: IpcHandlers,
  channel: C,
  input: unknown,
  sender: IpcSender,
): Promise<IpcOutput<C>> | IpcOutput<C> {
  const handler = handlers[channel] as (
    input: IpcCheckedInput<C>,
    sender: IpcSender,
  ) => Promise<IpcOutput<C>> | IpcOutput<C>;
  return handler(input as IpcCheckedInput<C>, sender);
}

function senderRefusal(sender: IpcSender, allowed: ReadonlySet<string | null>): IpcError | null {
  if (typeof sender !== 'object' || sender === null || sender.isMainFrame !== true) {
    return {
      code: IPC_ERROR_CODES.foreignSender,
      message:
        'Refused: the call came from an embedded frame, not the app window itself. Only the app’s own pages may use the terminal.',
    };
  }
  const origin = originOf(sender.frameUrl);
  if (origin === null || !allowed.has(origin)) {
    return {
      code: IPC_ERROR_CODES.foreignSender,
      message: `Refused: the call came from ${origin ?? 'an unreadable address'}, which is not one of the app’s own pages. If you navigated away from the app, reload it.`,
    };
  }
  return null;
}

/**
 * scheme://host[:port]. WHATWG gives custom schemes such as app:// the opaque origin "null", so
 * the origin is built from the parts instead.
 */
function originOf(url: string): string | null {
  if (typeof url !== 'string') return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.host === '') return null;
  return `${parsed.protocol}//${parsed.host}`.toLowerCase();
}

function inputError(channel: IpcChannel, error: z.ZodError): IpcError {
  const issue = error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? 'input' : pathText(issue.path);
  return {
    code: IPC_ERROR_CODES.invalidInput,
    message: `${channel} was refused: ${where} ${issue?.message ?? 'is invalid'}. Correct it and try again.`,
  };
}

function pathText(path: ReadonlyArray<PropertyKey>): string {
  let text = '';
  for (const part of path)
    text += typeof part === 'number' ? `[${part}]` : text === '' ? String(part) : `.${String(part)}`;
  return text;
}

function toIpcError(
  error: unknown,
  channel: string,
  onUnexpectedError: IpcRouterOptions['onUnexpectedError'],
): IpcError {
  // ApiCallError's message already says what went wrong and what to do, with the exchange's code.
  if (error instanceof ApiCallError) return { code: error.code, message: error.message };
  if (error instanceof IpcRefusal) return { code: error.code, message: error.message };
  if (error instanceof Error && typeof (error as { code?: unknown }).code === 'string') {
    return { code: (error as Error & { code: string }).code, message: error.message };
  }
  if (isIpcChannel(channel)) onUnexpectedError?.(channel, error);
  return {
    code: IPC_ERROR_CODES.internal,
    message: `${channel} failed inside the terminal (${error instanceof Error ? error.message : String(error)}). Try again; if it happens again, restart the app.`,
  };
}
