// The main process's core: the selected connection profile's session and every IPC handler of
// the contract. Host-neutral: Electron's ipcMain and the browser host both feed `router` and
// forward `events`; neither this file nor anything it imports knows which one it runs under.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { allPosition, batchCancelOrders } from '../../../shared/api/endpoints';
import type {
  BudgetStatsView,
  IpcCheckedInput,
  ProfileView,
  VaultStatusView,
  VaultTestResult,
} from '../../../shared/ipc/contract';
import type { IpcResult } from '../../../shared/ipc/ipc-error';
import { queryKeyText } from '../../../shared/ipc/query-key';
import type { QueryKey } from '../../../shared/ipc/query-key';
import { ApiCallError, LOCAL_ERROR_CODES } from '../api/api-call-error';
import { RateBudget } from '../api/rate-budget';
import { ServerClock } from '../api/server-clock';
import { createApiClient } from '../api/signed-client';
import type { Credentials } from '../api/signed-client';
import { createIpcRouter, IpcRefusal } from '../ipc/ipc-router';
import type { IpcHandlers, IpcRouterOptions, IpcSender } from '../ipc/ipc-router';
import type { PollUpdate } from '../poll-hub/poll-update';
import { ProfileStore } from '../profiles/profile-store';
import type { ConnectionProfile, LiveProfile, NewLiveProfile } from '../profiles/profile-store';
import type { CredentialVault } from '../vault/credential-vault';
import { maskApiKey } from '../vault/credential-rules';
import { openProfileSession } from './profile-session';
import type { ProfileSession } from './profile-session';
import { positionTpslBody, strategyOrderBody, v2OrdersBody, v3OrderItems } from './ticket-bodies';
import { WindowEventBus } from './window-events';
import type { WindowEvents } from './window-events';

export interface PaperAccount {
  readonly uid: string;
  readonly apiKey: string;
  readonly secretKey: string;
  readonly passphrase: string;
}

export interface RunningPaperExchange {
  readonly baseUrl: string;
  readonly account: PaperAccount;
  close(): Promise<void>;
}

/** Starts the paper exchange in-process; the host passes exchange/server.ts's startExchange. */
export type PaperExchangeLauncher = (options: { dataDir: string }) => Promise<RunningPaperExchange>;

export type CredentialStore = Pick<
  CredentialVault,
  'set' | 'replace' | 'delete' | 'status' | 'revealForSigning'
>;

/** A window's message: the router's sender plus the window it came from, for per-window events. */
export interface WindowSender extends IpcSender {
  readonly windowId: string;
}

export interface AppRouter {
  handle(channel: string, rawInput: unknown, sender: WindowSender): Promise<IpcResult<unknown>>;
}

export interface AppCoreOptions {
  readonly userDataDir: string;
  readonly vault: CredentialStore;
  readonly launchPaperExchange: PaperExchangeLauncher;
  readonly allowedOrigins: readonly string[];
  readonly fetch?: typeof fetch;
  readonly onUnexpectedError?: IpcRouterOptions['onUnexpectedError'];
}

export interface AppCore {
  readonly router: AppRouter;
  readonly events: WindowEvents;
  selectProfile(profileId: string): Promise<ProfileView>;
  /** Settings adds live profiles here; the IPC contract has no channel for it yet. */
  addProfile(input: NewLiveProfile): Promise<ProfileView>;
  /** The window closed: its subscriptions and event listeners end. */
  windowClosed(windowId: string): void;
  setWindowVisible(windowId: string, visible: boolean): void;
  /** Stops the session and the paper exchange; later calls are refused. */
  close(): Promise<void>;
}

export const PAPER_EXCHANGE_DIR = 'paper-exchange';
export const APP_CLOSED_CODE = 'APP_CLOSED';
export const PAPER_HAS_OWN_KEYS_CODE = 'PAPER_HAS_OWN_KEYS';
export const PAPER_START_FAILED_CODE = 'PAPER_START_FAILED';
export const UNKNOWN_WINDOW_CODE = 'UNKNOWN_WINDOW';

interface PollSubscriptionRecord {
  readonly windowId: string;
  readonly key: QueryKey;
  readonly keyText: string;
  stop: () => void;
}

export async function createAppCore(options: AppCoreOptions): Promise<AppCore> {
  const { userDataDir, vault } = options;
  const store = await ProfileStore.open(userDataDir);
  const events = new WindowEventBus();
  const subscriptions = new Map<string, PollSubscriptionRecord>();
  let paperLaunch: Promise<RunningPaperExchange> | null = null;
  let paper: RunningPaperExchange | null = null;
  let session: ProfileSession | null = null;
  let switching: Promise<unknown> = Promise.resolve();
  let closed = false;
  let closing: Promise<void> | null = null;

  function ensurePaperExchange(): Promise<RunningPaperExchange> {
    paperLaunch ??= options.launchPaperExchange({ dataDir: join(userDataDir, PAPER_EXCHANGE_DIR) }).then(
      (running) => {
        paper = running;
        return running;
      },
      (error: unknown) => {
        paperLaunch = null;
        const reason = error instanceof Error ? error.message : String(error);
        throw new IpcRefusal(
          PAPER_START_FAILED_CODE,
          `The paper exchange did not start (${reason}). Restart the app; if it happens again, check that ${join(userDataDir, PAPER_EXCHANGE_DIR)} is writable.`,
        );
      },
    );
    return paperLaunch;
  }

  /** The profile's keys; a keychain that cannot be read counts as none, and status says why. */
  async function credentialsOf(profile: ConnectionProfile): Promise<Credentials | null> {
    if (profile.kind === 'paper') {
      const { account } = await ensurePaperExchange();
      return account;
    }
    try {
      return await vault.revealForSigning(profile.id);
    } catch {
      return null;
    }
  }

  async function baseUrlOf(profile: ConnectionProfile): Promise<string> {
    return profile.kind === 'paper' ? (await ensurePaperExchange()).baseUrl : profile.baseUrl;
  }

  function subscribeToHub(target: ProfileSession, record: PollSubscriptionRecord): () => void {
    return target.hub.subscribe(record.windowId, record.key, (update) =>
      events.emitTo(record.windowId, 'poll.data', pollEvent(record.keyText, update)),
    );
  }

  async function switchTo(profileId: string): Promise<void> {
    const profile = store.require(profileId);
    if (session?.profile.id === profile.id) return;
    const next = await openProfileSession({
      profile,
      baseUrl: await baseUrlOf(profile),
      userDataDir,
      credentials: await credentialsOf(profile),
      fetch: options.fetch,
      onOutboxChange: (entry) => events.emitToAll('outbox.changed', { entry }),
    });
    const previous = session;
    session = next;
    // Windows keep what they subscribed to: the same keys, now polled on the new exchange.
    for (const record of subscriptions.values()) {
      record.stop();
      try {
        record.stop = subscribeToHub(next, record);
      } catch (error) {
        record.stop = () => {};
        events.emitTo(record.windowId, 'poll.data', {
          key: record.keyText,
          error: errorOf(error),
          receivedAt: Date.now(),
        });
      }
    }
    if (store.selectedId() !== profile.id) await store.select(profile.id);
    await previous?.close();
  }

  /** Switches run one after another, so two quick selections never leave two sessions open. */
  async function selectProfile(profileId: string): Promise<ProfileView> {
    assertOpen();
    const run = switching.then(() => switchTo(profileId));
    switching = run.catch(() => {});
    await run;
    return profileView(store.require(profileId));
  }

  async function currentSession(): Promise<ProfileSession> {
    assertOpen();
    await switching;
    if (session === null) throw new IpcRefusal(APP_CLOSED_CODE, 'No connection profile is open.');
    return session;
  }

  /** Trading without keys fails before the outbox records anything. */
  async function tradingSession(): Promise<ProfileSession> {
    const current = await currentSession();
    if (current.credentials() === null) {
      throw new IpcRefusal(
        LOCAL_ERROR_CODES.noCredentials,
        `The profile "${current.profile.name}" has no API key stored. Enter its API key, secret key and passphrase in Settings, then try again.`,
      );
    }
    return current;
  }

  function assertOpen(): void {
    if (closed) throw new IpcRefusal(APP_CLOSED_CODE, 'The terminal is shutting down; nothing was sent.');
  }

  function liveProfile(profileId: string): LiveProfile {
    const profile = store.require(profileId);
    if (profile.kind === 'paper') {
      throw new IpcRefusal(
        PAPER_HAS_OWN_KEYS_CODE,
        'The Paper profile uses the paper exchange’s own keys; there is nothing to store for it.',
      );
    }
    return profile;
  }

  async function vaultStatus(profile: ConnectionProfile): Promise<VaultStatusView> {
    if (profile.kind === 'paper') {
      return paper === null
        ? { state: 'empty', maskedKey: null }
        : { state: 'stored', maskedKey: maskApiKey(paper.account.apiKey) };
    }
    return vault.status(profile.id);
  }

  /** After a vault change the open session signs with the new keys at once. */
  async function refreshCredentials(profileId: string): Promise<void> {
    await switching;
    if (session?.profile.id === profileId) session.setCredentials(await credentialsOf(session.profile));
  }

  async function profileView(profile: ConnectionProfile): Promise<ProfileView> {
    return {
      id: profile.id,
      name: profile.name,
      kind: profile.kind === 'paper' ? 'paper' : profile.demoTrading ? 'demo' : 'live',
      baseUrl: profile.kind === 'paper' ? (paper?.baseUrl ?? 'http://127.0.0.1') : profile.baseUrl,
      selected: store.selectedId() === profile.id,
      vault: await vaultStatus(profile),
    };
  }

  async function testCredentials(profileId: string): Promise<VaultTestResult> {
    const profile = store.require(profileId);
    const current = await currentSession();
    let client = current.client;
    let dispose = (): void => {};
    if (current.profile.id !== profile.id) {
      const credentials = await credentialsOf(profile);
      const clock = new ServerClock();
      const budget = new RateBudget({ clock });
      client = createApiClient({
        baseUrl: await baseUrlOf(profile),
        credentials: () => credentials,
        demoTrading: profile.kind === 'live' && profile.demoTrading,
        locale: profile.locale,
        clock,
        budget,
        fetch: options.fetch,
      });
      dispose = () => {
        client.dispose();
        budget.dispose();
      };
    }
    try {
      await client.call(allPosition, { productType: 'USDT-FUTURES' });
      return { ok: true, code: null, message: `The exchange accepted the key of "${profile.name}".` };
    } catch (error) {
      if (error instanceof ApiCallError) return { ok: false, code: error.code, message: error.message };
      throw error;
    } finally {
      dispose();
    }
  }

  const handlers: IpcHandlers = {
    'orders.place': async (ticket) => {
      const current = await tradingSession();
      const entries =
        ticket.version === 'v2'
          ? await current.outbox.placeOrders(v2OrdersBody(ticket))
          : await current.outbox.placeOrdersV3(v3OrderItems(ticket));
      return { entries };
    },
    'orders.cancel': async (request) => {
      const current = await tradingSession();
      const answer = await current.client.call(batchCancelOrders, {
        productType: request.productType,
        symbol: request.symbol,
        orderIdList: request.orders.map((order) => ({ orderId: order.orderId, clientOid: order.clientOid })),
      });
      return {
        cancelled: answer.successList.map(({ orderId, clientOid }) => ({ orderId, clientOid })),
        failed: answer.failureList.map((item) => ({
          orderId: item.orderId,
          clientOid: item.clientOid,
          error: { code: item.errorCode, message: item.errorMsg },
        })),
      };
    },
    'tpsl.place': async (ticket) => {
      const current = await tradingSession();
      const entries =
        ticket.version === 'v2'
          ? await current.outbox.placePositionTpsl(positionTpslBody(ticket))
          : await current.outbox.placeStrategyOrder(strategyOrderBody(ticket));
      return { entries };
    },
    'outbox.list': async (input) => {
      const current = await currentSession();
      const states = input?.states;
      const entries = current.outbox.list();
      return states === undefined ? entries : entries.filter((entry) => states.includes(entry.state));
    },
    'poll.subscribe': async ({ key }, sender) => {
      const current = await currentSession();
      const record: PollSubscriptionRecord = {
        windowId: windowIdOf(sender),
        key,
        keyText: queryKeyText(key),
        stop: () => {},
      };
      record.stop = subscribeToHub(current, record);
      const subscriptionId = randomUUID();
      subscriptions.set(subscriptionId, record);
      return { subscriptionId, key: record.keyText };
    },
    'poll.unsubscribe': ({ subscriptionId }, sender) => {
      const record = subscriptions.get(subscriptionId);
      // A window may end its own subscriptions only.
      if (record === undefined || record.windowId !== windowIdOf(sender)) return { removed: false };
      subscriptions.delete(subscriptionId);
      record.stop();
      return { removed: true };
    },
    'vault.set': async (input) => {
      const profile = liveProfile(input.profileId);
      const status = await vault.set(profile.id, credentialsInput(input));
      await refreshCredentials(profile.id);
      return status;
    },
    'vault.replace': async (input) => {
      const profile = liveProfile(input.profileId);
      const status = await vault.replace(profile.id, credentialsInput(input));
      await refreshCredentials(profile.id);
      return status;
    },
    'vault.delete': async ({ profileId }) => {
      const profile = liveProfile(profileId);
      await vault.delete(profile.id);
      await refreshCredentials(profile.id);
      return vault.status(profile.id);
    },
    'vault.status': ({ profileId }) => vaultStatus(store.require(profileId)),
    'vault.test': ({ profileId }) => testCredentials(profileId),
    'profiles.list': async () => {
      await switching;
      return Promise.all(store.list().map((profile) => profileView(profile)));
    },
    'profiles.select': ({ profileId }) => selectProfile(profileId),
    'budget.stats': async (): Promise<BudgetStatsView> => {
      const stats = (await currentSession()).budget.stats();
      return {
        endpoints: stats.endpoints.map((endpoint) => ({
          endpointId: endpoint.endpointId,
          perSecond: endpoint.perSecond,
          capacity: endpoint.capacity,
          usedInWindow: endpoint.usedInWindow,
          headroom: endpoint.headroom,
          queued: endpoint.queued,
          backoffRemainingMs: endpoint.backoffRemainingMs,
        })),
        clockOffsetMs: stats.clockOffsetMs,
      };
    },
  };

  const router = createIpcRouter(handlers, {
    allowedOrigins: options.allowedOrigins,
    onUnexpectedError: options.onUnexpectedError,
  });

  async function close(): Promise<void> {
    closing ??= (async () => {
      closed = true;
      await switching;
      for (const record of subscriptions.values()) record.stop();
      subscriptions.clear();
      events.clear();
      await session?.close();
      session = null;
      const launched = await paperLaunch?.catch(() => null);
      await launched?.close();
    })();
    return closing;
  }

  try {
    await selectProfile(store.selectedId());
  } catch (error) {
    await close();
    throw error;
  }

  return {
    router: { handle: (channel, rawInput, sender) => router.handle(channel, rawInput, sender) },
    events,
    selectProfile,
    async addProfile(input) {
      assertOpen();
      return profileView(await store.add(input));
    },
    windowClosed(windowId) {
      for (const [id, record] of subscriptions) {
        if (record.windowId !== windowId) continue;
        record.stop();
        subscriptions.delete(id);
      }
      session?.hub.unsubscribeWindow(windowId);
    },
    setWindowVisible(windowId, visible) {
      session?.hub.setWindowVisible(windowId, visible);
    },
    close,
  };
}

function windowIdOf(sender: IpcSender): string {
  if ('windowId' in sender && typeof sender.windowId === 'string') return sender.windowId;
  throw new IpcRefusal(UNKNOWN_WINDOW_CODE, 'The window that sent this call is not known; reload it.');
}

function credentialsInput(input: IpcCheckedInput<'vault.set'>): {
  apiKey: string;
  secretKey: string;
  passphrase: string;
} {
  return { apiKey: input.apiKey, secretKey: input.secretKey, passphrase: input.passphrase };
}

function pollEvent(keyText: string, update: PollUpdate) {
  return update.ok
    ? { key: keyText, data: update.data, receivedAt: update.receivedAt }
    : {
        key: keyText,
        error: { code: update.error.code, message: update.error.message },
        receivedAt: update.receivedAt,
      };
}

function errorOf(error: unknown): { code: string; message: string } {
  if (error instanceof ApiCallError || error instanceof IpcRefusal) {
    return { code: error.code, message: error.message };
  }
  return { code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error) };
}
