import type { HoldSide, ProductType } from '../../shared/api/enums';
import type { Command, SetLeverageCommand } from './commands';
import type { Engine, LeverageResult } from './engine';
import { EngineError } from './errors';
import { checkLeverageTier } from './risk/tier-limits';
import { EngineState, type Market } from './state';
import type { Account, SymbolSettings } from './types';

type SetPositionModeCommand = Extract<Command, { type: 'setPositionMode' }>;
type SetMarginModeCommand = Extract<Command, { type: 'setMarginMode' }>;

/**
 * An account's leverage, margin mode and position mode (E12, C3, C4), with the live exchange's
 * refusals: beyond the contract or the position tier, margin that would not suffice, and any
 * change while positions or orders stand in the way.
 */
export class LeverageSettings {
  constructor(private readonly engine: Engine) {}

  private get state(): EngineState {
    return this.engine.state;
  }

  setPositionMode(command: SetPositionModeCommand): { posMode: SetPositionModeCommand['posMode'] } {
    const account = this.engine.account(command.uid);
    if (this.hasProductExposure(account, command.productType)) {
      throw EngineError.detailed(
        'positionModeLocked',
        `Position or order exists, the position mode cannot be switched: close the positions and cancel the open orders of ${command.productType} first`,
      );
    }
    account.posModes[command.productType] = command.posMode;
    this.state.version++;
    return { posMode: command.posMode };
  }

  setMarginMode(command: SetMarginModeCommand): LeverageResult {
    const account = this.engine.account(command.uid);
    const market = this.engine.marketFor(command.symbol, command.productType);
    this.engine.checkMarginCoin(market, command.marginCoin);
    if (this.hasSymbolExposure(account, market.contract.symbol)) {
      throw EngineError.detailed(
        'marginModeLocked',
        `Currently holding positions or orders, the margin mode cannot be adjusted: close the position and cancel the open orders of ${market.contract.symbol} first`,
      );
    }
    const settings = this.state.settingsFor(account, market.contract);
    settings.marginMode = command.marginMode;
    this.state.version++;
    return this.leverageView(market, settings);
  }

  setLeverage(command: SetLeverageCommand): LeverageResult {
    const account = this.engine.account(command.uid);
    const market = this.engine.marketFor(command.symbol, command.productType);
    this.engine.checkMarginCoin(market, command.marginCoin);
    const contract = market.contract;
    const settings = this.state.settingsFor(account, contract);
    for (const value of [command.leverage, command.longLeverage, command.shortLeverage]) {
      if (value !== null && (value < contract.minLever || value > contract.maxLever)) {
        throw EngineError.detailed(
          'leverageRange',
          `Leverage exceeds the effective range: ${contract.symbol} allows ${contract.minLever} to ${contract.maxLever}`,
        );
      }
    }
    // Open orders reserved their margin at the current leverage; the live exchange refuses the change.
    for (const id of account.openOrders) {
      if (this.state.orders.get(id)?.symbol === contract.symbol) {
        throw EngineError.detailed(
          'leverageLocked',
          `There is currently a commission or a planned commission, and the leverage cannot be adjusted: cancel the open orders of ${contract.symbol} first`,
        );
      }
    }
    const next = { ...settings };
    const hedge = account.posModes[contract.productType] === 'hedge_mode';
    if (settings.marginMode === 'crossed') {
      const value = command.leverage ?? command.longLeverage ?? command.shortLeverage;
      if (value === null) throw EngineError.of('paramEmpty', 'leverage');
      // Crossed leverage covers both directions, as the live answer shows it.
      next.crossLeverage = value;
      next.longLeverage = value;
      next.shortLeverage = value;
    } else if (command.longLeverage !== null || command.shortLeverage !== null) {
      next.longLeverage = command.longLeverage ?? command.leverage ?? settings.longLeverage;
      next.shortLeverage = command.shortLeverage ?? command.leverage ?? settings.shortLeverage;
    } else if (command.leverage !== null) {
      if (!hedge || command.holdSide === null) {
        if (hedge) throw EngineError.of('paramEmpty', 'holdSide');
        next.longLeverage = command.leverage;
        next.shortLeverage = command.leverage;
      } else if (command.holdSide === 'long') next.longLeverage = command.leverage;
      else next.shortLeverage = command.leverage;
    } else {
      throw EngineError.of('paramEmpty', 'leverage');
    }
    checkLeverageTier(this.state, account, market, next);
    this.applyLeverageToPositions(account, market, next);
    Object.assign(settings, next);
    this.state.version++;
    return this.leverageView(market, settings);
  }

  /** Re-sizes the margin of open positions at the new leverage, refusing if it cannot be covered. */
  private applyLeverageToPositions(account: Account, market: Market, next: SymbolSettings): void {
    const changes: Array<{ side: HoldSide; leverage: number; margin: bigint }> = [];
    let extra = 0n;
    for (const side of ['long', 'short'] as const) {
      const position = this.state.positions.get(
        EngineState.positionKey(account.uid, market.contract.symbol, side),
      );
      if (position === undefined) continue;
      const leverage =
        next.marginMode === 'crossed'
          ? next.crossLeverage
          : side === 'long'
            ? next.longLeverage
            : next.shortLeverage;
      const margin = market.math.initialMargin(
        market.math.valueOfTicksLots(position.openValue, position.lots),
        leverage,
      );
      extra += margin - position.margin;
      changes.push({ side, leverage, margin });
    }
    if (extra > 0n && extra > this.engine.trading.available(account, market.contract.marginCoin)) {
      throw EngineError.of('leverageMargin');
    }
    for (const change of changes) {
      const position = this.state.positions.get(
        EngineState.positionKey(account.uid, market.contract.symbol, change.side),
      );
      if (position === undefined) continue;
      position.leverage = change.leverage;
      position.margin = change.margin;
    }
  }

  private leverageView(market: Market, settings: SymbolSettings): LeverageResult {
    return {
      symbol: market.contract.symbol,
      marginCoin: market.contract.marginCoin,
      longLeverage: settings.longLeverage,
      shortLeverage: settings.shortLeverage,
      crossMarginLeverage: settings.crossLeverage,
      marginMode: settings.marginMode,
    };
  }

  private hasSymbolExposure(account: Account, symbol: string): boolean {
    for (const id of account.openOrders) if (this.state.orders.get(id)?.symbol === symbol) return true;
    for (const position of account.positions.values()) {
      if (position.symbol === symbol) return true;
    }
    return false;
  }

  private hasProductExposure(account: Account, productType: ProductType): boolean {
    for (const id of account.openOrders)
      if (this.state.orders.get(id)?.productType === productType) return true;
    for (const position of account.positions.values()) {
      if (position.productType === productType) return true;
    }
    return false;
  }
}
