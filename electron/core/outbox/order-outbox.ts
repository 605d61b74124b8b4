// The durable record of every order and TP/SL request. Each request gets a clientOid and is on
// disk before it is sent; a definite answer settles it; an unknown outcome (timeout, dropped
// connection, 40010/40725/45001) is resolved by looking the order up by clientOid, never by
// sending it again. Entries a crash left unresolved are looked up by recover() at the next start.
import type { z } from 'zod';
import type { EndpointDefinition } from '../../../shared/api/endpoint';
import { batchPlaceOrder } from '../../../shared/api/endpoints/e01-batch-place-order';
import { placeBatchV3 } from '../../../shared/api/endpoints/e02-place-batch-v3';
import { placePosTpsl } from '../../../shared/api/endpoints/e08-place-pos-tpsl';
import { placeStrategyOrder } from '../../../shared/api/endpoints/e09-place-strategy-order';
import { describeParameterError } from '../../../shared/api/parameter-error';
import { NOT_RECEIVED_CODE, SETTLED_OUTBOX_STATES } from '../../../shared/ipc/outbox-entry';
import type { OutboxEndpointId, OutboxEntry, OutboxTarget } from '../../../shared/ipc/outbox-entry';
import { ApiCallError, LOCAL_ERROR_CODES } from '../api/api-call-error';
import type { ApiClient } from '../api/signed-client';
import { newClientOid } from './client-oid';
import { lookUpEntry } from './order-lookup';
import { OutboxFile } from './outbox-file';

const DAY_MS = 86_400_000;

export interface OrderOutboxOptions {
  readonly filePath: string;
  readonly client: Pick<ApiClient, 'call'>;
  readonly now?: () => number;
  /** Wait before the first lookup of an unknown outcome; doubles up to maxLookupDelayMs. */
  readonly firstLookupDelayMs?: number;
  readonly maxLookupDelayMs?: number;
  /**
   * An order the exchange says it does not have counts as not received only this long after it
   * was sent: a request held up in the exchange's queue may still be acted on until then.
   */
  readonly notReceivedAfterMs?: number;
  /** TP/SL lookups can only prove presence; after this many a person has to check. */
  readonly maxTpslLookups?: number;
  /** Settled entries older than this are dropped when the file is compacted. */
  readonly retentionDays?: number;
}

export type OutboxListener = (entry: OutboxEntry) => void;

type V2OrderBody = z.input<typeof batchPlaceOrder.request>;
type V2OrderItem = V2OrderBody['orderList'][number];
type V3OrderItem = z.input<typeof placeBatchV3.request>[number];
type PosTpslBody = z.input<typeof placePosTpsl.request>;
type StrategyBody = z.input<typeof placeStrategyOrder.request>;

/** One entry to record, before it has a state. */
interface Draft {
  readonly clientOid: string;
  readonly target: OutboxTarget;
  readonly request: unknown;
}

type Settlement =
  | { readonly state: 'accepted'; readonly orderId: string | null }
  | { readonly state: 'rejected'; readonly code: string; readonly message: string };

export class OrderOutbox {
  private readonly entries: Map<string, OutboxEntry>;
  private readonly listeners = new Set<OutboxListener>();
  private readonly resolutions = new Map<string, Promise<OutboxEntry>>();
  private readonly stopped = new AbortController();
  private readonly now: () => number;
  private readonly firstLookupDelayMs: number;
  private readonly maxLookupDelayMs: number;
  private readonly notReceivedAfterMs: number;
  private readonly maxTpslLookups: number;

  private constructor(
    private readonly options: OrderOutboxOptions,
    private readonly file: OutboxFile,
    entries: Map<string, OutboxEntry>,
  ) {
    this.entries = entries;
    this.now = options.now ?? Date.now;
    this.firstLookupDelayMs = options.firstLookupDelayMs ?? 1_000;
    this.maxLookupDelayMs = options.maxLookupDelayMs ?? 30_000;
    this.notReceivedAfterMs = options.notReceivedAfterMs ?? 60_000;
    this.maxTpslLookups = options.maxTpslLookups ?? 10;
  }

  /** Reads the file and compacts it; call recover() to resolve what a crash left open. */
  static async open(options: OrderOutboxOptions): Promise<OrderOutbox> {
    const { file, entries, lines } = await OutboxFile.open(options.filePath);
    const outbox = new OrderOutbox(options, file, entries);
    await outbox.compact(lines);
    return outbox;
  }

  /** Newest first. */
  list(): OutboxEntry[] {
    return [...this.entries.values()].sort(
      (a, b) => b.createdAt - a.createdAt || a.clientOid.localeCompare(b.clientOid),
    );
  }

  get(clientOid: string): OutboxEntry | undefined {
    return this.entries.get(clientOid);
  }

  /** Called after every change, once it is on disk. Returns the way to stop listening. */
  onChange(listener: OutboxListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** E1. Each order gets its own entry; clientOids are the outbox's own. */
  async placeOrders(
    body: Omit<V2OrderBody, 'orderList'> & { orderList: ReadonlyArray<Omit<V2OrderItem, 'clientOid'>> },
  ): Promise<OutboxEntry[]> {
    const orderList = body.orderList.map((item) => ({ ...item, clientOid: newClientOid(this.now()) }));
    const request = { ...body, orderList };
    const parsed = checked(batchPlaceOrder, request);
    const drafts = parsed.orderList.map((item, index): Draft => ({
      clientOid: item.clientOid ?? '',
      target: {
        kind: 'order',
        symbol: parsed.symbol,
        productType: parsed.productType,
        side: item.side,
        orderType: item.orderType,
        size: item.size,
        price: item.price ?? null,
      },
      request: orderList[index],
    }));
    return this.send(
      'E1',
      'v2',
      drafts,
      () => this.options.client.call(batchPlaceOrder, request, { priority: 'user' }),
      (data) => {
        const settled = new Map<string, Settlement>();
        for (const item of data.successList)
          settled.set(item.clientOid, { state: 'accepted', orderId: item.orderId });
        for (const item of data.failureList) {
          settled.set(item.clientOid, { state: 'rejected', code: item.errorCode, message: item.errorMsg });
        }
        return settled;
      },
    );
  }

  /** E2. Each order gets its own entry; clientOids are the outbox's own. */
  async placeOrdersV3(items: ReadonlyArray<Omit<V3OrderItem, 'clientOid'>>): Promise<OutboxEntry[]> {
    const request = items.map((item) => ({ ...item, clientOid: newClientOid(this.now()) }));
    const parsed = checked(placeBatchV3, request);
    const drafts = parsed.map((item, index): Draft => {
      if (item.category === 'SPOT' || item.category === 'MARGIN') {
        throw new ApiCallError({
          kind: 'bad_request',
          endpointId: placeBatchV3.id,
          endpointName: placeBatchV3.name,
          httpStatus: null,
          code: LOCAL_ERROR_CODES.badRequest,
          msg: `category ${item.category}: the outbox records futures orders only`,
          outcomeUnknown: false,
        });
      }
      return {
        clientOid: item.clientOid ?? '',
        target: {
          kind: 'order',
          symbol: item.symbol,
          productType: item.category,
          side: item.side,
          orderType: item.orderType,
          size: item.qty,
          price: item.price ?? null,
        },
        request: request[index],
      };
    });
    return this.send(
      'E2',
      'v3',
      drafts,
      () => this.options.client.call(placeBatchV3, request, { priority: 'user' }),
      (data) => {
        const settled = new Map<string, Settlement>();
        for (const item of data) {
          settled.set(
            item.clientOid,
            item.code === '00000'
              ? { state: 'accepted', orderId: item.orderId }
              : { state: 'rejected', code: item.code, message: item.msg },
          );
        }
        return settled;
      },
    );
  }

  /** E8. The take-profit and the stop-loss each get an entry. */
  async placePositionTpsl(
    body: Omit<PosTpslBody, 'stopSurplusClientOid' | 'stopLossClientOid'>,
  ): Promise<OutboxEntry[]> {
    const request: PosTpslBody = {
      ...body,
      stopSurplusClientOid: body.stopSurplusTriggerPrice === undefined ? undefined : newClientOid(this.now()),
      stopLossClientOid: body.stopLossTriggerPrice === undefined ? undefined : newClientOid(this.now()),
    };
    const parsed = checked(placePosTpsl, request);
    const legs = [
      {
        leg: 'takeProfit' as const,
        clientOid: parsed.stopSurplusClientOid,
        price: parsed.stopSurplusTriggerPrice,
        size: parsed.stopSurplusSize,
      },
      {
        leg: 'stopLoss' as const,
        clientOid: parsed.stopLossClientOid,
        price: parsed.stopLossTriggerPrice,
        size: parsed.stopLossSize,
      },
    ];
    const drafts = legs.flatMap(({ leg, clientOid, price, size }): Draft[] =>
      clientOid === undefined || price === undefined
        ? []
        : [
            {
              clientOid,
              target: {
                kind: 'tpsl',
                symbol: parsed.symbol,
                productType: parsed.productType,
                holdSide: parsed.holdSide,
                leg,
                takeProfit: leg === 'takeProfit' ? price : null,
                stopLoss: leg === 'stopLoss' ? price : null,
                size: size ?? null,
              },
              request,
            },
          ],
    );
    return this.send(
      'E8',
      'v2',
      drafts,
      () => this.options.client.call(placePosTpsl, request, { priority: 'user' }),
      (data) => {
        const settled = new Map<string, Settlement>();
        for (const draft of drafts) {
          const item = data.find(
            (plan) =>
              plan.stopSurplusClientOid === draft.clientOid || plan.stopLossClientOid === draft.clientOid,
          );
          settled.set(draft.clientOid, {
            state: 'accepted',
            orderId: item?.orderId ?? data[0]?.orderId ?? null,
          });
        }
        return settled;
      },
    );
  }

  /** E9. One entry for the strategy order, whether it holds a take-profit, a stop-loss or both. */
  async placeStrategyOrder(body: Omit<StrategyBody, 'clientOid'>): Promise<OutboxEntry[]> {
    const request: StrategyBody = { ...body, clientOid: newClientOid(this.now()) };
    const parsed = checked(placeStrategyOrder, request);
    const draft: Draft = {
      clientOid: parsed.clientOid ?? '',
      target: {
        kind: 'tpsl',
        symbol: parsed.symbol,
        productType: parsed.category,
        holdSide: parsed.posSide,
        leg:
          parsed.takeProfit !== undefined && parsed.stopLoss !== undefined
            ? 'both'
            : parsed.takeProfit !== undefined
              ? 'takeProfit'
              : 'stopLoss',
        takeProfit: parsed.takeProfit ?? null,
        stopLoss: parsed.stopLoss ?? null,
        size: parsed.tpslMode === 'partial' ? (parsed.qty ?? null) : null,
      },
      request,
    };
    return this.send(
      'E9',
      'v3',
      [draft],
      () => this.options.client.call(placeStrategyOrder, request, { priority: 'user' }),
      (data) =>
        new Map<string, Settlement>([[draft.clientOid, { state: 'accepted', orderId: data.orderId }]]),
    );
  }

  /**
   * Looks up every entry left pending, sent or unknown (by a crash, or by a lookup still going
   * on). Resolves when each is settled or handed to a person (needsReview).
   */
  recover(): Promise<OutboxEntry[]> {
    const open = [...this.entries.values()].filter(
      (entry) => !SETTLED_OUTBOX_STATES.has(entry.state) && !entry.needsReview,
    );
    return Promise.all(open.map((entry) => this.resolve(entry.clientOid)));
  }

  /** The entry once settled or handed to a person; looks it up if its outcome is open. */
  resolve(clientOid: string): Promise<OutboxEntry> {
    const running = this.resolutions.get(clientOid);
    if (running !== undefined) return running;
    const entry = this.entries.get(clientOid);
    if (entry === undefined) return Promise.reject(new Error(`no outbox entry ${clientOid}`));
    if (SETTLED_OUTBOX_STATES.has(entry.state) || entry.needsReview) return Promise.resolve(entry);
    const resolution = this.lookUpUntilSettled(clientOid).finally(() => this.resolutions.delete(clientOid));
    this.resolutions.set(clientOid, resolution);
    return resolution;
  }

  /** Stops lookups (they resume at the next recover()) and closes the file. */
  async close(): Promise<void> {
    this.stopped.abort();
    await Promise.allSettled([...this.resolutions.values()]);
    await this.file.close();
  }

  private async send<Data>(
    endpointId: OutboxEndpointId,
    version: 'v2' | 'v3',
    drafts: readonly Draft[],
    call: () => Promise<Data>,
    settle: (data: Data) => Map<string, Settlement>,
  ): Promise<OutboxEntry[]> {
    if (this.stopped.signal.aborted) throw new Error('The order outbox is closed; nothing was sent.');
    const createdAt = this.now();
    const batchId = drafts[0]?.clientOid ?? '';
    const pending = drafts.map((draft): OutboxEntry => ({
      ...draft,
      endpointId,
      version,
      batchId,
      state: 'pending',
      orderId: null,
      error: null,
      lookups: 0,
      needsReview: false,
      createdAt,
      updatedAt: createdAt,
      sentAt: null,
    }));
    await this.store(pending);
    const sentAt = this.now();
    await this.store(pending.map((entry) => ({ ...entry, state: 'sent', sentAt, updatedAt: sentAt })));

    let settlements: Map<string, Settlement>;
    try {
      settlements = settle(await call());
    } catch (error) {
      const definite = error instanceof ApiCallError && !error.outcomeUnknown;
      const failure = {
        code: error instanceof ApiCallError ? error.code : 'UNEXPECTED',
        message: error instanceof Error ? error.message : String(error),
      };
      await this.store(
        drafts.map((draft) =>
          this.changed(draft.clientOid, { state: definite ? 'rejected' : 'unknown', error: failure }),
        ),
      );
      if (!definite) for (const draft of drafts) void this.resolve(draft.clientOid).catch(() => {});
      return drafts.map((draft) => this.entries.get(draft.clientOid) as OutboxEntry);
    }

    const answered = drafts.map((draft) => {
      const settlement = settlements.get(draft.clientOid);
      if (settlement === undefined) {
        return this.changed(draft.clientOid, {
          state: 'unknown',
          error: {
            code: 'NOT_IN_ANSWER',
            message: 'The exchange answered without this order; looking it up by clientOid.',
          },
        });
      }
      return settlement.state === 'accepted'
        ? this.changed(draft.clientOid, { state: 'accepted', orderId: settlement.orderId, error: null })
        : this.changed(draft.clientOid, {
            state: 'rejected',
            error: { code: settlement.code, message: settlement.message },
          });
    });
    await this.store(answered);
    for (const entry of answered)
      if (entry.state === 'unknown') void this.resolve(entry.clientOid).catch(() => {});
    return answered;
  }

  private async lookUpUntilSettled(clientOid: string): Promise<OutboxEntry> {
    let delay = this.firstLookupDelayMs;
    for (;;) {
      const entry = this.entries.get(clientOid) as OutboxEntry;
      if (this.stopped.signal.aborted) return entry;
      const result = await lookUpEntry(this.options.client, entry);
      if (this.stopped.signal.aborted) return entry;
      const lookups = entry.lookups + 1;
      if (result.kind === 'found') {
        return this.commit(
          this.changed(clientOid, { state: 'accepted', orderId: result.orderId, error: null, lookups }),
        );
      }
      const sinceSent = this.now() - (entry.sentAt ?? entry.createdAt);
      if (result.kind === 'absent' && sinceSent >= this.notReceivedAfterMs) {
        return this.commit(
          this.changed(clientOid, {
            state: 'rejected',
            lookups,
            error: {
              code: NOT_RECEIVED_CODE,
              message:
                'The exchange never received this order (looked up by clientOid); it was not placed. Place it again if you still want it.',
            },
          }),
        );
      }
      const error =
        result.kind === 'absent'
          ? {
              code: 'NOT_FOUND_YET',
              message: 'Not on the exchange yet; looking again before calling it not received.',
            }
          : { code: result.code, message: result.message };
      const giveUp = entry.target.kind === 'tpsl' && lookups >= this.maxTpslLookups;
      const state = entry.state === 'pending' || entry.state === 'sent' ? 'unknown' : entry.state;
      const updated = await this.commit(
        this.changed(clientOid, { state, lookups, error, needsReview: giveUp }),
      );
      if (giveUp) return updated;
      const wait =
        result.kind === 'absent' ? Math.min(delay, Math.max(0, this.notReceivedAfterMs - sinceSent)) : delay;
      await sleep(Math.max(wait, 10), this.stopped.signal);
      delay = Math.min(delay * 2, this.maxLookupDelayMs);
    }
  }

  private changed(clientOid: string, patch: Partial<OutboxEntry>): OutboxEntry {
    const entry = this.entries.get(clientOid) as OutboxEntry;
    return { ...entry, ...patch, updatedAt: this.now() };
  }

  private async commit(entry: OutboxEntry): Promise<OutboxEntry> {
    await this.store([entry]);
    return entry;
  }

  /** On disk first, then in memory and to listeners. */
  private async store(entries: readonly OutboxEntry[]): Promise<void> {
    await this.file.append(entries);
    for (const entry of entries) {
      this.entries.set(entry.clientOid, entry);
      for (const listener of this.listeners) listener(entry);
    }
  }

  /** Drops settled entries past retention and superseded lines, when there is something to drop. */
  private async compact(lines: number): Promise<void> {
    const cutoff = this.now() - (this.options.retentionDays ?? 30) * DAY_MS;
    let dropped = 0;
    for (const [clientOid, entry] of this.entries) {
      if (SETTLED_OUTBOX_STATES.has(entry.state) && entry.updatedAt < cutoff) {
        this.entries.delete(clientOid);
        dropped += 1;
      }
    }
    if (dropped > 0 || lines > this.entries.size * 2 + 100) await this.file.rewrite(this.entries.values());
  }
}

/** Checks a request as the client would, so an invalid one is refused before it is recorded. */
function checked<E extends EndpointDefinition>(endpoint: E, request: unknown): z.output<E['request']> {
  const parsed = endpoint.request.safeParse(request, { reportInput: true });
  if (parsed.success) return parsed.data as z.output<E['request']>;
  const described = describeParameterError(parsed.error, endpoint.version);
  throw new ApiCallError({
    kind: 'bad_request',
    endpointId: endpoint.id,
    endpointName: endpoint.name,
    httpStatus: null,
    code: LOCAL_ERROR_CODES.badRequest,
    msg: described.msg,
    outcomeUnknown: false,
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
