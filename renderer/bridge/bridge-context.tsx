// Hands the one bridge of this page to every component that needs it.
import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import type { Bridge } from './bridge';

const BridgeContext = createContext<Bridge | null>(null);

export function BridgeProvider({ bridge, children }: { bridge: Bridge; children: ReactNode }) {
  return <BridgeContext value={bridge}>{children}</BridgeContext>;
}

export function useBridge(): Bridge {
  const bridge = useContext(BridgeContext);
  if (bridge === null) throw new Error('useBridge needs a BridgeProvider above it');
  return bridge;
}
