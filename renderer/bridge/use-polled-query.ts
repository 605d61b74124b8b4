// A poll of main's hub as a react-query query: subscribed while mounted, each pushed result
// written into the cache with setQueryData (TanStack Query's guidance for pushed data).
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { IpcEvents } from '../../shared/ipc/contract';
import { queryKeyText } from '../../shared/ipc/query-key';
import type { QueryKey } from '../../shared/ipc/query-key';
import { useBridge } from './bridge-context';

export type PollResult = IpcEvents['poll.data'];

export function pollQueryKey(key: QueryKey): readonly unknown[] {
  return ['poll', key.endpointId, key.params];
}

export function usePolledQuery(key: QueryKey) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const keyText = queryKeyText(key);

  useEffect(() => {
    const cacheKey = pollQueryKey(key);
    const stopListening = bridge.on('poll.data', (payload) => {
      if (payload.key === keyText) queryClient.setQueryData(cacheKey, payload);
    });
    let subscriptionId: string | null = null;
    let unmounted = false;
    bridge.invoke('poll.subscribe', { key }).then(
      (subscription) => {
        subscriptionId = subscription.subscriptionId;
        if (unmounted) void bridge.invoke('poll.unsubscribe', { subscriptionId }).catch(() => {});
      },
      (error: unknown) =>
        queryClient.setQueryData(cacheKey, {
          key: keyText,
          error: {
            code: (error as { code?: string }).code ?? 'BRIDGE',
            message: error instanceof Error ? error.message : String(error),
          },
          receivedAt: Date.now(),
        } satisfies PollResult),
    );
    return () => {
      unmounted = true;
      stopListening();
      if (subscriptionId !== null) void bridge.invoke('poll.unsubscribe', { subscriptionId }).catch(() => {});
    };
    // keyText names the key completely, so it alone decides when to subscribe anew.
  }, [bridge, queryClient, keyText]);

  return useQuery<PollResult>({ queryKey: pollQueryKey(key), queryFn: skipToken, staleTime: Infinity });
}
