// The renderer's entry: one bridge to main, one query cache, the tickers page.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BridgeProvider } from './bridge/bridge-context';
import { createPreloadBridge } from './bridge/preload-bridge';
import { createSocketBridge } from './bridge/socket-bridge';
import { TickersPage } from './features/tickers/tickers-page';
import './styles.css';

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element');

// In Electron the preload script provides the bridge; the browser host serves this page and a
// socket bridge from one origin, and the token cookie goes along.
const bridge =
  window.tradingBridge !== undefined
    ? createPreloadBridge(window.tradingBridge)
    : createSocketBridge(new WebSocket(`ws://${location.host}/bridge`));
const queryClient = new QueryClient();

createRoot(root).render(
  <StrictMode>
    <BridgeProvider bridge={bridge}>
      <QueryClientProvider client={queryClient}>
        <main>
          <h1>USDT-FUTURES</h1>
          <TickersPage />
        </main>
      </QueryClientProvider>
    </BridgeProvider>
  </StrictMode>,
);
