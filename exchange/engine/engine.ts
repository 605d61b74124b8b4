import type { PosMode, ProductType } from '../../shared/api/enums';
import type { CancelOrderV3Command, CancelOrdersCommand, Command, CreateAccountCommand } from './commands';
import { movesMarks } from './commands';
import type { ContractSpec } from './contracts';
import { categoryOfCoin } from './categories';
import { attachLoan, deposit, type DepositResult, type LoanResult } from './deposits';
import { EngineError } from './errors';
import { LeverageSettings } from './leverage-settings';
import { placeTpslPlans } from './tpsl-placement';
import { parseMoney, parseScaled } from './money';
import { EngineState, type Market } from './state';
import { Trading, type PlaceOrderInput } from './trading';
import type { Account, Order, PlanKind, SymbolSettings } from './types';
import { MarketSimulation } from './market-sim';
import { TpslTriggers } from './tpsl-triggers';
import { PriceIndex } from './pricing/price-index';
import { settleDueFunding, settleFundingNow, type FundingSettlement } from './pricing/funding';
import { moveCoinTo } from './pricing/coin-moves';
import { SpotTrading, type SpotOrderInput } from './spot/spot-trading';
import { Liquidations } from './risk/liquidation';
import { DeliveryDesk, type ListedContract } from './delivery/delivery-desk';
import { cancelRefusal } from './delivery/delivery-rules';

export type PlaceItemResult =
  | {
      ok: true;
      orderId: string;
      clientOid: string;
      /** The order replaced earlier reduce-only orders (E2 rule 4): v3 answers a null orderId. */
      replaced: boolean;
    }
  | { ok: false; clientOid: string | null; code: string; msg: string };

export type CancelItemResult =
  | { ok: true; orderId: string; clientOid: string }
  | { ok: false; orderId: string; clientOid: string; code: string; msg: string };

export interface LeverageResult {
  symbol: string;
  marginCoin: string;
  longLeverage: number;
  shortLeverage: number;
  crossMarginLeverage: number;
  marginMode: SymbolSettings['marginMode'];
}

export interface TpslResult {
  id: number;
  clientOid: string;
  kind: PlanKind;
}

export interface CommandResults {
  createAccount: Account;
  addApiKey: Account;
  placeOrders: PlaceItemResult[];
  placeSpotOrders: PlaceItemResult[];
  cancelOrders: CancelItemResult[];
  cancelOrderV3: { orderId: string; clientOid: string };
  setLeverage: LeverageResult;
  setPositionMode: { posMode: PosMode };
  setMarginMode: LeverageResult;
  setDepositAccount: string;
  deposit: DepositResult;
  attachLoan: LoanResult;
  placeTpsl: TpslResult[];
  tick: null;
  setPrice: { symbol: string; price: number };
  setMarketPaused: { paused: boolean };
  settleFunding: FundingSettlement[];
  listContract: ListedContract;
}

export type ResultOf<C extends Command> = CommandResults[C['type']];

export interface EngineOptions {
  readonly seed: number;
  readonly contracts: readonly ContractSpec[];
}

/**
 * The paper exchange's deterministic state machine: the same commands in the same order give
 * the same state, which is what makes journal replay exact. A command is either refused with an
 * EngineError before it changes anything, or applied completely.
 */
export class Engine {
  readonly state: EngineState;
  readonly trading: Trading;
  readonly spot: SpotTrading;
  private readonly triggers: TpslTriggers;
  private readonly liquidations: Liquidations;
  readonly deliveries: DeliveryDesk;
  private readonly settings: LeverageSettings;

  constructor(
    readonly options: EngineOptions,
    nextRecordId = 1,
  ) {
    this.state = new EngineState(nextRecordId);
    this.trading = new Trading(this.state);
    this.triggers = new TpslTriggers(this.state, this.trading);
    this.liquidations = new Liquidations(this.state, this.trading);
    for (const contract of options.contracts) {
      if (!this.state.indices.has(contract.baseCoin)) {
        this.state.indices.set(contract.baseCoin, PriceIndex.create(contract.baseCoin, options.seed));
      }
      this.state.addMarket(contract, MarketSimulation.create(contract, options.seed));
    }
    this.spot = new SpotTrading(this.state, this.trading, options.seed);
    this.deliveries = new DeliveryDesk(this);
    this.settings = new LeverageSettings(this);
  }

  apply<C extends Command>(command: C): ResultOf<C> {
    if (command.ts < this.state.clock)
      throw new Error(`command time ${command.ts} is before ${this.state.clock}`);
    this.state.clock = command.ts;
    const result = this.dispatch(command) as ResultOf<C>;
    // Dated contracts follow the clock: index average, delivery, the next quarterly listing.
    this.deliveries.advance(command.ts, movesMarks(command));
    // Take-profits and stop-losses fire once the command's own matching is over.
    this.triggers.settle(command.ts);
    this.liquidations.settle(command, command.ts);
    return result;
  }

  private dispatch(command: Command): CommandResults[keyof CommandResults] {
    switch (command.type) {
      case 'createAccount':
        return this.createAccount(command);
      case 'addApiKey': {
        const account = this.account(command.uid);
        this.state.addKey(account, { ...command.key, uid: account.uid });
        return account;
      }
      case 'placeOrders':
        return this.placeOrders(command.uid, command.version, command.orders, command.ts);
      case 'placeSpotOrders':
        return this.placeSpotOrders(command.uid, command.orders, command.ts);
      case 'cancelOrders':
        return this.cancelOrders(command);
      case 'cancelOrderV3':
        return this.cancelOrderV3(command);
      case 'setLeverage':
        return this.settings.setLeverage(command);
      case 'setPositionMode':
        return this.settings.setPositionMode(command);
      case 'setMarginMode':
        return this.settings.setMarginMode(command);
      case 'setDepositAccount': {
        const account = this.account(command.uid);
        account.depositAccounts.set(command.coin, command.accountType);
        this.state.version++;
        return 'success';
      }
      case 'deposit':
        return deposit(this.state, this.account(command.uid), command.coin, command.amount, command.ts);
      case 'attachLoan':
        return attachLoan(this.state, this.account(command.uid), command.coin, command.amount, command.ts);
      case 'placeTpsl':
        return placeTpslPlans(this, command);
      case 'tick':
        for (const index of this.state.indices.values()) index.tick(command.ts, this.state.marketPaused);
        for (const market of this.state.markets.values()) {
          if (this.deliveries.prepareTick(market)) market.sim.tick(this, market, command.ts);
        }
        settleDueFunding(this.state, command.ts);
        this.spot.tick(command.ts);
        return null;
      case 'setPrice': {
        const market = this.state.market(command.symbol);
        if (market === undefined)
          throw EngineError.detailed('symbolNotExistV2', `Symbol ${command.symbol} does not exist`);
        const units = parseScaled(command.price, market.contract.pricePlace);
        if (units === null || units <= 0n || units % BigInt(market.contract.priceEndStep) !== 0n) {
          throw EngineError.of('priceTick', market.contract.priceEndStep / 10 ** market.contract.pricePlace);
        }
        const ticks = Number(units / BigInt(market.contract.priceEndStep));
        moveCoinTo(this, market, ticks, command.ts);
        return { symbol: market.contract.symbol, price: ticks };
      }
      case 'setMarketPaused':
        this.state.marketPaused = command.paused;
        if (command.paused) for (const market of this.state.markets.values()) market.sim.withdraw(market);
        if (command.paused) this.spot.withdrawAll();
        this.state.version++;
        return { paused: command.paused };
      case 'settleFunding':
        return settleFundingNow(this.state, command.symbol, command.ts);
      case 'listContract':
        return this.deliveries.list(command);
    }
  }

  account(uid: string): Account {
    const account = this.state.accounts.get(uid);
    if (account === undefined)
      throw EngineError.detailed('invalidAccessKey', `Account ${uid} does not exist`);
    return account;
  }

  private createAccount(command: CreateAccountCommand): Account {
    if (this.state.accounts.has(command.uid))
      throw EngineError.detailed('paramError', `uid ${command.uid} exists`);
    if (command.kind === 'sub') {
      const broker = this.state.accounts.get(command.brokerUid ?? '');
      if (broker === undefined || broker.kind !== 'broker') {
        throw EngineError.detailed(
          'paramError',
          'Parameter brokerUid error: a sub-account needs an existing broker account',
        );
      }
    }
    const amounts: Array<[string, bigint]> = [];
    for (const [coin, text] of Object.entries(command.balances)) {
      const amount = parseMoney(text);
      if (amount === null || amount < 0n) {
        throw EngineError.detailed(
          'paramError',
          `Parameter balances.${coin} error: a non-negative amount with at most 8 decimals`,
        );
      }
      amounts.push([coin, amount]);
    }
    const account = this.state.createAccount(command);
    this.state.addKey(account, { ...command.key, uid: account.uid });
    for (const [coin, amount] of amounts) {
      if (amount === 0n) continue;
      this.state.ledger.apply(
        account,
        { category: categoryOfCoin(coin), symbol: '', coin, type: 'TRANSFER_IN', amount, fee: 0n },
        command.ts,
      );
    }
    this.state.version++;
    return account;
  }

  private placeOrders(
    uid: string,
    version: 'v2' | 'v3',
    orders: PlaceOrderInput[],
    ts: number,
  ): PlaceItemResult[] {
    const account = this.account(uid);
    // Duplicates inside one batch are refused like duplicates of earlier orders.
    return orders.map((input) => {
      try {
        const { order, replacedEarlier } = this.trading.place(account, input, version, ts);
        // Without a clientOid of its own the order's clientOid already is its id written out.
        const orderId = input.clientOid === null ? order.clientOid : String(order.id);
        return { ok: true, orderId, clientOid: order.clientOid, replaced: replacedEarlier };
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        return { ok: false, clientOid: input.clientOid, code: error.code, msg: error.msg };
      }
    });
  }

  private placeSpotOrders(uid: string, orders: SpotOrderInput[], ts: number): PlaceItemResult[] {
    const account = this.account(uid);
    return orders.map((input) => {
      try {
        const order = this.spot.place(account, input, ts);
        return { ok: true, orderId: String(order.id), clientOid: order.clientOid, replaced: false };
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        return { ok: false, clientOid: input.clientOid, code: error.code, msg: error.msg };
      }
    });
  }

  private cancelOrderV3(command: CancelOrderV3Command): { orderId: string; clientOid: string } {
    const account = this.account(command.uid);
    const { orderId, clientOid, category, symbol } = command;
    const spotOrder = this.spot.findOrder(account, orderId, clientOid);
    const futures = spotOrder === undefined ? this.findOrder(account, orderId, clientOid) : undefined;
    const order = spotOrder ?? futures;
    const orderCategory = spotOrder?.category ?? futures?.productType;
    if (
      order === undefined ||
      (category !== null && category !== orderCategory) ||
      (symbol !== null && symbol !== order.symbol)
    ) {
      throw EngineError.of('orderNotExistV3');
    }
    if (order.status !== 'live' && order.status !== 'partially_filled') {
      throw EngineError.detailed(
        'orderNotExistV3',
        `Order does not exist among open orders (status ${order.status})`,
      );
    }
    if (spotOrder !== undefined) {
      this.spot.cancel(spotOrder, command.ts);
      return { orderId: String(spotOrder.id), clientOid: spotOrder.clientOid };
    }
    if (futures === undefined) throw EngineError.of('orderNotExistV3');
    const market = this.state.market(futures.symbol);
    const refusal = market === undefined ? null : cancelRefusal(market.contract, command.ts);
    if (refusal !== null) throw refusal;
    this.trading.cancel(futures, 'normal_cancel', command.ts);
    return { orderId: String(futures.id), clientOid: futures.clientOid };
  }

  private cancelOrders(command: CancelOrdersCommand): CancelItemResult[] {
    const account = this.account(command.uid);
    if (command.symbol !== null) {
      const refusal = cancelRefusal(this.marketFor(command.symbol, command.productType).contract, command.ts);
      if (refusal !== null) throw refusal;
    }
    const results: CancelItemResult[] = [];
    if (command.targets === null) {
      for (const id of [...account.openOrders]) {
        const order = this.state.orders.get(id);
        if (order === undefined || order.productType !== command.productType) continue;
        if (command.symbol !== null && order.symbol !== command.symbol) continue;
        if (command.marginCoin !== null && order.marginCoin !== command.marginCoin) continue;
        // Orders of a contract in delivery stay; the delivery itself cancels them.
        const market = this.state.market(order.symbol);
        if (market !== undefined && cancelRefusal(market.contract, command.ts) !== null) continue;
        this.trading.cancel(order, 'normal_cancel', command.ts);
        results.push({ ok: true, orderId: String(order.id), clientOid: order.clientOid });
      }
      return results;
    }
    for (const target of command.targets) {
      const order = this.findOrder(account, target.orderId, target.clientOid);
      const open =
        order !== undefined &&
        order.productType === command.productType &&
        order.symbol === command.symbol &&
        (order.status === 'live' || order.status === 'partially_filled');
      if (order === undefined || !open) {
        results.push({
          ok: false,
          orderId: target.orderId ?? '',
          clientOid: target.clientOid ?? '',
          code: '40768',
          msg:
            order === undefined
              ? 'Order does not exist'
              : `Order does not exist among open orders of ${command.symbol ?? ''} (status ${order.status})`,
        });
        continue;
      }
      this.trading.cancel(order, 'normal_cancel', command.ts);
      results.push({ ok: true, orderId: String(order.id), clientOid: order.clientOid });
    }
    return results;
  }

  /** Finds an account's order by id (which prevails) or clientOid. */
  findOrder(account: Account, orderId: string | null, clientOid: string | null): Order | undefined {
    if (orderId !== null) {
      const order = this.state.orders.get(Number(orderId));
      return order?.uid === account.uid ? order : undefined;
    }
    if (clientOid !== null) {
      const id = this.state.idByClientOid(account, clientOid);
      return id === undefined ? undefined : this.state.orders.get(id);
    }
    return undefined;
  }

  marketFor(symbol: string, productType: ProductType): Market {
    const market = this.state.market(symbol);
    if (market === undefined || market.contract.productType !== productType) {
      throw EngineError.detailed(
        'symbolNotExistV2',
        `Parameter symbol ${symbol} does not exist in ${productType}`,
      );
    }
    return market;
  }

  /** Refuses a margin coin the market is not margined in. */
  checkMarginCoin(market: Market, marginCoin: string): void {
    if (marginCoin !== market.contract.marginCoin) {
      throw EngineError.detailed(
        'paramError',
        `Parameter marginCoin error: ${market.contract.symbol} is margined in ${market.contract.marginCoin}`,
      );
    }
  }
}
