import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from './engine/commands';
import { DEFAULT_CONTRACTS, type ContractSpec } from './engine/contracts';
import { Engine, type CommandResults } from './engine/engine';
import { EngineError } from './engine/errors';
import { restoreSnapshot, takeSnapshot } from './engine/snapshot';
import { MarketViews } from './engine/market-views';
import { Views } from './engine/views';
import { Journal, type JournalStats } from './journal/journal';

/** Commands between snapshots, and the longest time between them, to bound replay at start. */
const SNAPSHOT_EVERY_COMMANDS = 20_000;
const SNAPSHOT_EVERY_MS = 600_000;

/** A command without its time, which the service stamps when it accepts it. */
export type CommandInput = Command extends infer C ? (C extends Command ? Omit<C, 'ts'> : never) : never;

export interface ServiceOptions {
  readonly dataDir: string;
  readonly seed?: number | undefined;
  readonly contracts?: readonly ContractSpec[];
  readonly log?: (message: string) => void;
  /** Wall clock in ms; tests may pass their own. */
  readonly now?: () => number;
}

interface Meta {
  seed: number;
  defaultUid: string | null;
}

/**
 * The engine made durable: every command is applied, journaled and flushed before its result is
 * returned (group commit through the journal), and a start replays snapshot + journal.
 */
export class ExchangeService {
  readonly views: Views;
  readonly marketViews: MarketViews;
  private halted: Error | null = null;
  private commandsSinceSnapshot = 0;
  private lastSnapshotAt: number;
  private snapshotting = false;

  private constructor(
    readonly engine: Engine,
    private readonly journal: Journal<Command>,
    private readonly meta: Meta,
    private readonly dataDir: string,
    private readonly log: (message: string) => void,
    private readonly now: () => number,
  ) {
    this.views = new Views(engine);
    this.marketViews = new MarketViews(engine);
    this.lastSnapshotAt = now();
  }

  static async open(options: ServiceOptions): Promise<ExchangeService> {
    const log = options.log ?? (() => {});
    const now = options.now ?? Date.now;
    await mkdir(options.dataDir, { recursive: true });
    const meta = await loadMeta(options.dataDir, options.seed, log);
    const engineOptions = { seed: meta.seed, contracts: options.contracts ?? DEFAULT_CONTRACTS };
    const { journal, recovered } = await Journal.open<Command, unknown>(join(options.dataDir, 'journal'), {
      log,
    });
    try {
      const engine =
        recovered.snapshot === null
          ? new Engine(engineOptions)
          : restoreSnapshot(engineOptions, recovered.snapshot.state);
      for (const { seq, command } of recovered.commands) {
        try {
          engine.apply(command);
        } catch (error) {
          throw new Error(
            `replaying journal record ${seq} (${command.type}) failed: ${String(error)}. The journal does not match this version of the exchange; restore a backup of ${options.dataDir} or start with an empty data folder.`,
          );
        }
      }
      if (recovered.commands.length > 0 || recovered.snapshot !== null) {
        log(
          `recovered ${recovered.commands.length} journaled commands${recovered.snapshot === null ? '' : ` after snapshot ${recovered.snapshot.seq}`}`,
        );
      }
      return new ExchangeService(engine, journal, meta, options.dataDir, log, now);
    } catch (error) {
      await journal.close();
      throw error;
    }
  }

  get defaultUid(): string | null {
    return this.meta.defaultUid;
  }

  get seed(): number {
    return this.meta.seed;
  }

  /**
   * Applies a command and resolves once it is durable. An EngineError refuses it without any
   * change and nothing is journaled.
   */
  async execute<I extends CommandInput>(input: I): Promise<CommandResults[I['type']]> {
    if (this.halted !== null) throw this.halted;
    const command = { ...input, ts: Math.max(this.engine.state.clock, this.now()) } as Command;
    let result: CommandResults[I['type']];
    try {
      result = this.engine.apply(command) as CommandResults[I['type']];
    } catch (error) {
      if (error instanceof EngineError) throw error;
      // A failure inside a command may have left the state half-changed: stop taking commands
      // rather than serve state the journal cannot reproduce.
      this.halted = new Error(
        `the exchange stopped taking orders after an internal error; restart it (${String(error)})`,
      );
      this.log(
        `internal error in ${command.type}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      throw this.halted;
    }
    let seq: number;
    try {
      seq = this.journal.append(command);
    } catch (error) {
      this.halted = new Error(
        `the exchange stopped taking orders: its journal cannot be written (${String(error)})`,
      );
      throw this.halted;
    }
    this.commandsSinceSnapshot++;
    try {
      await this.journal.durable(seq);
    } catch (error) {
      this.halted = new Error(
        `the exchange stopped taking orders: its journal cannot be written (${String(error)})`,
      );
      throw this.halted;
    }
    this.maybeSnapshot();
    return result;
  }

  /** Computes a view of the state and answers once everything it reflects is durable. */
  async read<T>(view: () => T): Promise<T> {
    const value = view();
    await this.journal.durable();
    return value;
  }

  /** Creates the default paper account on first start; later starts reuse it. */
  async ensureDefaultAccount(): Promise<string> {
    if (this.meta.defaultUid !== null && this.engine.state.accounts.has(this.meta.defaultUid)) {
      return this.meta.defaultUid;
    }
    const uid = newUid();
    await this.execute({
      type: 'createAccount',
      uid,
      kind: 'standard',
      brokerUid: null,
      label: 'Paper',
      posMode: 'one_way_mode',
      balances: { USDT: '100000', USDC: '100000', BTC: '2' },
      key: newCredentials([
        'read',
        'trade',
        'uta_trade_read',
        'uta_trade_write',
        'uta_mgt_read',
        'uta_mgt_write',
      ]),
    });
    this.meta.defaultUid = uid;
    await saveMeta(this.dataDir, this.meta);
    return uid;
  }

  private maybeSnapshot(): void {
    if (this.snapshotting) return;
    const due =
      this.commandsSinceSnapshot >= SNAPSHOT_EVERY_COMMANDS ||
      (this.commandsSinceSnapshot > 0 && this.now() - this.lastSnapshotAt >= SNAPSHOT_EVERY_MS);
    if (due) void this.snapshot();
  }

  /** Writes a snapshot of the state as of the last journaled command. */
  async snapshot(): Promise<void> {
    if (this.snapshotting) return;
    this.snapshotting = true;
    try {
      const seq = this.journal.lastSeq;
      const state = takeSnapshot(this.engine);
      this.commandsSinceSnapshot = 0;
      this.lastSnapshotAt = this.now();
      await this.journal.writeSnapshot(seq, state);
    } catch (error) {
      this.log(`snapshot failed (the journal still holds everything): ${String(error)}`);
    } finally {
      this.snapshotting = false;
    }
  }

  journalStats(): JournalStats {
    return this.journal.stats;
  }

  /** Writes a last snapshot (so the next start replays little) and closes the journal. */
  async close(): Promise<void> {
    if (this.halted === null && this.commandsSinceSnapshot > 0) await this.snapshot();
    await this.journal.close();
  }
}

export function newUid(): string {
  // Live UIDs are 10-digit numbers.
  return String(1_000_000_000 + (randomBytes(4).readUInt32BE(0) % 8_999_999_999));
}

export function newCredentials(
  permissions: Array<
    'read' | 'trade' | 'uta_trade_read' | 'uta_trade_write' | 'uta_mgt_read' | 'uta_mgt_write'
  >,
) {
  return {
    apiKey: `bg_${randomBytes(16).toString('hex')}`,
    secretKey: randomBytes(32).toString('hex'),
    passphrase: randomBytes(12).toString('base64url'),
    permissions,
  };
}

async function loadMeta(
  dataDir: string,
  seed: number | undefined,
  log: (message: string) => void,
): Promise<Meta> {
  const path = join(dataDir, 'exchange.json');
  try {
    const saved = JSON.parse(await readFile(path, 'utf8')) as Meta;
    if (seed !== undefined && seed !== saved.seed) {
      log(`this data folder was started with seed ${saved.seed}; keeping it (the journal replays with it)`);
    }
    return saved;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(
        `cannot read ${path}: ${String(error)}. Fix or remove the file (the journal keeps the state).`,
      );
    }
    const meta: Meta = { seed: seed ?? randomBytes(4).readUInt32BE(0), defaultUid: null };
    await saveMeta(dataDir, meta);
    return meta;
  }
}

async function saveMeta(dataDir: string, meta: Meta): Promise<void> {
  const path = join(dataDir, 'exchange.json');
  await writeFile(`${path}.tmp`, `${JSON.stringify(meta, null, 2)}\n`);
  await rename(`${path}.tmp`, path);
}
