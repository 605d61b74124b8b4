// USDT-FUTURES tickers, live from main's poll of E11.
import { tickers } from '../../../shared/api/endpoints/e11-tickers';
import type { QueryKey } from '../../../shared/ipc/query-key';
import { usePolledQuery } from '../../bridge/use-polled-query';
import { changeDirection, percentChange } from './format-change';

const TICKERS_KEY: QueryKey = { endpointId: 'E11', params: { productType: 'USDT-FUTURES' } };

export function TickersPage() {
  const { data: result } = usePolledQuery(TICKERS_KEY);

  if (result === undefined) return <p className="status">Waiting for the first tickers…</p>;
  if ('error' in result) {
    return (
      <p className="status error" role="alert">
        Tickers are not updating: {result.error.message} ({result.error.code})
      </p>
    );
  }
  const parsed = tickers.response.safeParse(result.data);
  if (!parsed.success) {
    return (
      <p className="status error" role="alert">
        The tickers came in a shape this version does not read; update the app.
      </p>
    );
  }

  return (
    <table className="tickers" aria-label="USDT-FUTURES tickers">
      <thead>
        <tr>
          <th scope="col">Symbol</th>
          <th scope="col">Last</th>
          <th scope="col">Bid</th>
          <th scope="col">Ask</th>
          <th scope="col">24h change</th>
          <th scope="col">Mark</th>
        </tr>
      </thead>
      <tbody>
        {parsed.data.map((ticker) => (
          <tr key={ticker.symbol} data-symbol={ticker.symbol}>
            <th scope="row">{ticker.symbol}</th>
            <td data-column="last">{ticker.lastPr}</td>
            <td data-column="bid">{ticker.bidPr}</td>
            <td data-column="ask">{ticker.askPr}</td>
            <td data-column="change" className={changeDirection(ticker.change24h)}>
              {percentChange(ticker.change24h)}
            </td>
            <td data-column="mark">{ticker.markPrice}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
