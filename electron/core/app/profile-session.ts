// Everything the terminal runs for one connection profile: the exchange's clock, the rate
// budget, the signing client, the order outbox and the poll hub. Built when the profile is
// selected and torn down as a whole when another one is, so nothing of the old one lingers.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { RateBudget } from '../api/rate-budget';
import { ServerClock } from '../api/server-clock';
import { createApiClient } from '../api/signed-client';
import type { ApiClient, Credentials } from '../api/signed-client';
import { OrderOutbox } from '../outbox/order-outbox';
import type { OutboxListener } from '../outbox/order-outbox';
import { PollHub } from '../poll-hub/poll-hub';
import type { ConnectionProfile } from '../profiles/profile-store';

export interface ProfileSessionOptions {
  readonly profile: ConnectionProfile;
  readonly baseUrl: string;
  readonly userDataDir: string;
  /** The keys the session signs with at first; null when none are stored. */
  readonly credentials: Credentials | null;
  readonly fetch?: typeof fetch;
  readonly onOutboxChange: OutboxListener;
}

export interface ProfileSession {
  readonly profile: ConnectionProfile;
  readonly clock: ServerClock;
  readonly budget: RateBudget;
  readonly client: ApiClient;
  readonly outbox: OrderOutbox;
  readonly hub: PollHub;
  credentials(): Credentials | null;
  /** The keys changed in the vault: later requests sign with these. */
  setCredentials(credentials: Credentials | null): void;
  close(): Promise<void>;
}

/** One outbox file per profile, so orders sent to one exchange are never looked up on another. */
export function outboxFilePath(userDataDir: string, profileId: string): string {
  return join(userDataDir, 'outbox', `${profileId}.jsonl`);
}

export async function openProfileSession(options: ProfileSessionOptions): Promise<ProfileSession> {
  const { profile } = options;
  let credentials = options.credentials;
  const clock = new ServerClock();
  const budget = new RateBudget({ clock });
  const client = createApiClient({
    baseUrl: options.baseUrl,
    credentials: () => credentials,
    demoTrading: profile.kind === 'live' && profile.demoTrading,
    locale: profile.locale,
    clock,
    budget,
    fetch: options.fetch,
  });
  const filePath = outboxFilePath(options.userDataDir, profile.id);
  let outbox: OrderOutbox;
  try {
    await mkdir(join(options.userDataDir, 'outbox'), { recursive: true });
    outbox = await OrderOutbox.open({ filePath, client });
  } catch (error) {
    client.dispose();
    budget.dispose();
    throw error;
  }
  const stopListening = outbox.onChange(options.onOutboxChange);
  const hub = new PollHub({ client, budget });
  // Orders a crash left open are looked up, not sent again; without keys that waits for them.
  if (credentials !== null) void outbox.recover().catch(() => {});

  let closing: Promise<void> | null = null;
  return {
    profile,
    clock,
    budget,
    client,
    outbox,
    hub,
    credentials: () => credentials,
    setCredentials(next) {
      const hadNone = credentials === null;
      credentials = next;
      if (hadNone && next !== null) void outbox.recover().catch(() => {});
    },
    close() {
      closing ??= (async () => {
        stopListening();
        hub.dispose();
        client.dispose();
        budget.dispose();
        await outbox.close();
      })();
      return closing;
    },
  };
}
