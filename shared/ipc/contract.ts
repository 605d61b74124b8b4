// The IPC contract: one map from channel to its input schema and output type, used by preload,
// main and the browser host alike, so a renamed channel or a changed shape fails to compile on
// both sides. Outputs are phantom types: only inputs need checking at run time, in main.
import { z } from 'zod';
import type { IpcError } from './ipc-error';
import { cancelOrdersSchema, orderTicketSchema, tpslTicketSchema } from './order-ticket';
import type { OutboxEntry } from './outbox-entry';
import { OUTBOX_STATES } from './outbox-entry';
import { queryKeySchema } from './query-key';

interface ChannelSpec<Input extends z.ZodType, Output> {
  readonly input: Input;
  /** Never read: it carries the output type. */
  readonly output: Output;
}

function channel<Output>() {
  return <Input extends z.ZodType>(input: Input): ChannelSpec<Input, Output> => ({
    input,
    output: undefined as Output,
  });
}

const noInput = z.strictObject({}).optional();
const profileId = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1 to 64 letters, digits, ".", "_" or "-"');
const subscriptionId = z.string().min(1).max(128);

/** Only visible ASCII, as the vault requires; the vault checks lengths and says what is wrong. */
const credentialText = z.string().regex(/^[\x21-\x7e]{1,256}$/, 'must be visible characters without spaces');
const credentialsInput = z.strictObject({
  profileId,
  apiKey: credentialText,
  secretKey: credentialText,
  passphrase: credentialText,
});

/** What the renderer may know about stored credentials: never the secret or the passphrase. */
export type VaultStatusView =
  | { readonly state: 'stored'; readonly maskedKey: string | null; readonly reason?: string }
  | { readonly state: 'empty'; readonly maskedKey: null }
  | { readonly state: 'unavailable'; readonly maskedKey: null; readonly reason: string };

export interface VaultTestResult {
  readonly ok: boolean;
  /** What the exchange said, as a person can act on it. */
  readonly message: string;
  readonly code: string | null;
}

export interface ProfileView {
  readonly id: string;
  readonly name: string;
  readonly kind: 'paper' | 'demo' | 'live';
  readonly baseUrl: string;
  readonly selected: boolean;
  readonly vault: VaultStatusView;
}

export interface BudgetStatsView {
  readonly endpoints: ReadonlyArray<{
    readonly endpointId: string;
    readonly perSecond: number;
    readonly capacity: number;
    readonly usedInWindow: number;
    readonly headroom: number;
    readonly queued: number;
    readonly backoffRemainingMs: number;
  }>;
  readonly clockOffsetMs: number | null;
}

export interface CancelOrdersResult {
  readonly cancelled: ReadonlyArray<{ readonly orderId: string; readonly clientOid: string }>;
  readonly failed: ReadonlyArray<{
    readonly orderId: string;
    readonly clientOid: string;
    readonly error: IpcError;
  }>;
}

export interface PollSubscription {
  readonly subscriptionId: string;
  /** queryKeyText of the key: poll.data events name it. */
  readonly key: string;
}

export const IPC_CHANNELS = {
  'orders.place': channel<{ readonly entries: readonly OutboxEntry[] }>()(orderTicketSchema),
  'orders.cancel': channel<CancelOrdersResult>()(cancelOrdersSchema),
  'tpsl.place': channel<{ readonly entries: readonly OutboxEntry[] }>()(tpslTicketSchema),
  'outbox.list': channel<readonly OutboxEntry[]>()(
    z.strictObject({ states: z.array(z.enum(OUTBOX_STATES)).optional() }).optional(),
  ),
  'poll.subscribe': channel<PollSubscription>()(z.strictObject({ key: queryKeySchema })),
  'poll.unsubscribe': channel<{ readonly removed: boolean }>()(z.strictObject({ subscriptionId })),
  'vault.set': channel<VaultStatusView>()(credentialsInput),
  'vault.replace': channel<VaultStatusView>()(credentialsInput),
  'vault.delete': channel<VaultStatusView>()(z.strictObject({ profileId })),
  'vault.status': channel<VaultStatusView>()(z.strictObject({ profileId })),
  'vault.test': channel<VaultTestResult>()(z.strictObject({ profileId })),
  'profiles.list': channel<readonly ProfileView[]>()(noInput),
  'profiles.select': channel<ProfileView>()(z.strictObject({ profileId })),
  'budget.stats': channel<BudgetStatsView>()(noInput),
} as const;

export type IpcChannels = typeof IPC_CHANNELS;
export type IpcChannel = keyof IpcChannels;
/** What the renderer sends. */
export type IpcInput<C extends IpcChannel> = z.input<IpcChannels[C]['input']>;
/** What main's handler receives: the input after its schema checked and normalised it. */
export type IpcCheckedInput<C extends IpcChannel> = z.output<IpcChannels[C]['input']>;
export type IpcOutput<C extends IpcChannel> = IpcChannels[C]['output'];

export function isIpcChannel(name: string): name is IpcChannel {
  return Object.hasOwn(IPC_CHANNELS, name);
}

/** Events main pushes to the renderer. */
export interface IpcEvents {
  readonly 'poll.data':
    | { readonly key: string; readonly data: unknown; readonly receivedAt: number }
    | { readonly key: string; readonly error: IpcError; readonly receivedAt: number };
  readonly 'outbox.changed': { readonly entry: OutboxEntry };
}
export type IpcEvent = keyof IpcEvents;
export const IPC_EVENTS: readonly IpcEvent[] = ['poll.data', 'outbox.changed'];
