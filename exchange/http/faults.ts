// Faults a test arms through the admin interface to rehearse lost answers. A fault strikes after
// the exchange has acted, so the client cannot tell from the answer whether its request took
// effect, exactly the situation of codes 40010/40725/45001 and of a dropped connection.
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { ERROR_CODES } from '../../shared/api/error-codes';
import { errorEnvelope } from '../../shared/api/envelope';
import type { Envelope } from '../../shared/api/envelope';

export const FAULT_KINDS = ['drop', '40010', '40725', '45001', 'delay'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const faultSpecSchema = z
  .object({
    path: z.string().startsWith('/'),
    count: z.int().min(1),
    kind: z.enum(FAULT_KINDS),
    delayMs: z.int().min(0).max(600_000).optional(),
  })
  .refine((spec) => spec.kind !== 'delay' || spec.delayMs !== undefined, {
    message: 'delayMs is required for a delay fault',
    path: ['delayMs'],
  });
export type FaultSpec = z.output<typeof faultSpecSchema>;

export interface ArmedFault {
  readonly id: number;
  readonly path: string;
  readonly kind: FaultKind;
  readonly delayMs: number | undefined;
  /** Requests still to be struck. */
  readonly remaining: number;
}

interface MutableFault {
  id: number;
  path: string;
  kind: FaultKind;
  delayMs: number | undefined;
  remaining: number;
}

const CODE_FAULTS = {
  '40010': { status: 400, error: ERROR_CODES.requestTimedOut },
  '40725': { status: 400, error: ERROR_CODES.serviceError },
  '45001': { status: 500, error: ERROR_CODES.unknownError },
} as const;

export class FaultRegistry {
  private readonly byPath = new Map<string, MutableFault[]>();
  private nextId = 1;

  /** Arms a fault for the next `count` requests to `path` that reach their handler. */
  add(spec: FaultSpec): ArmedFault {
    const checked = faultSpecSchema.parse(spec);
    const fault: MutableFault = {
      id: this.nextId++,
      path: checked.path,
      kind: checked.kind,
      delayMs: checked.delayMs,
      remaining: checked.count,
    };
    const queue = this.byPath.get(fault.path);
    if (queue === undefined) this.byPath.set(fault.path, [fault]);
    else queue.push(fault);
    return { ...fault };
  }

  list(): ArmedFault[] {
    return [...this.byPath.values()].flat().map((fault) => ({ ...fault }));
  }

  clear(): void {
    this.byPath.clear();
  }

  /** Consumes one strike of the earliest fault armed for `path`, if any. */
  take(path: string): ArmedFault | undefined {
    if (this.byPath.size === 0) return undefined;
    const queue = this.byPath.get(path);
    const fault = queue?.[0];
    if (queue === undefined || fault === undefined) return undefined;
    fault.remaining -= 1;
    if (fault.remaining === 0) queue.shift();
    if (queue.length === 0) this.byPath.delete(path);
    return { ...fault };
  }
}

/**
 * Answers in place of the real answer as the fault says. Returns the envelope to send, or
 * undefined when the connection was dropped and nothing must be sent.
 */
export async function strikeWithFault(
  fault: ArmedFault,
  reply: FastifyReply,
  realStatus: number,
  realAnswer: Envelope<unknown>,
): Promise<Envelope<unknown> | undefined> {
  switch (fault.kind) {
    case 'drop':
      reply.hijack();
      reply.raw.socket?.destroy();
      return undefined;
    case 'delay':
      await new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 0));
      reply.code(realStatus);
      return realAnswer;
    default: {
      const { status, error } = CODE_FAULTS[fault.kind];
      reply.code(status);
      return errorEnvelope(error.code, error.msg, realAnswer.requestTime);
    }
  }
}
