import { ERROR_CODES, formatMessage, type ErrorName } from '../../shared/api/error-codes';

/** A refusal by the engine, carrying the exchange's code and message. Thrown before any change. */
export class EngineError extends Error {
  constructor(
    readonly code: string,
    readonly msg: string,
  ) {
    super(`${code} ${msg}`);
    this.name = 'EngineError';
  }

  static of(name: ErrorName, ...args: ReadonlyArray<string | number>): EngineError {
    const entry = ERROR_CODES[name];
    return new EngineError(entry.code, formatMessage(entry.msg, ...args));
  }

  /** The same error with a more precise message a trader can act on. */
  static detailed(name: ErrorName, msg: string): EngineError {
    return new EngineError(ERROR_CODES[name].code, msg);
  }
}
