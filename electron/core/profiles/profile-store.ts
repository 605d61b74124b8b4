// Connection profiles: which exchange the terminal talks to and how. Kept as JSON in the app's
// user-data folder; keys never are (they live in the vault, or come from the paper exchange).
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

export const PAPER_PROFILE_ID = 'paper';
export const LIVE_API_BASE_URL = 'https://api.bitget.com';
export const DEFAULT_LOCALE = 'en-US';
export const PROFILES_FILE_NAME = 'profiles.json';

/** The built-in profile: the paper exchange started in-process, with its own keys. */
export interface PaperProfile {
  readonly id: typeof PAPER_PROFILE_ID;
  readonly kind: 'paper';
  readonly name: 'Paper';
  readonly locale: string;
}

/** A profile of the user's: an exchange URL and keys stored in the vault under its id. */
export interface LiveProfile {
  readonly id: string;
  readonly kind: 'live';
  readonly name: string;
  readonly baseUrl: string;
  /** Sends `paptrading: 1`: the live exchange's demo trading. */
  readonly demoTrading: boolean;
  readonly locale: string;
}

export type ConnectionProfile = PaperProfile | LiveProfile;

export type ProfileErrorCode = 'PROFILE_INVALID' | 'PROFILE_NOT_FOUND' | 'PROFILE_FILE_UNREADABLE';

export class ProfileError extends Error {
  constructor(
    readonly code: ProfileErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ProfileError';
  }
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https, or http to this machine only: keys must never cross a network in clear text. */
const baseUrlSchema = z
  .string()
  .max(2048)
  .refine((text) => {
    const url = parseUrl(text);
    if (url === null || url.username !== '' || url.password !== '') return false;
    if (url.search !== '' || url.hash !== '') return false;
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  }, 'must be an https:// address such as https://api.bitget.com (plain http only to 127.0.0.1 or localhost), without user, query or fragment')
  .transform((text) => text.replace(/\/+$/, ''));

const localeSchema = z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'must be a locale such as en-US or zh-CN');

export const newLiveProfileSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(64, 'must be at most 64 characters')
    .refine((name) => name.toLowerCase() !== 'paper', 'is taken by the built-in Paper profile'),
  baseUrl: baseUrlSchema.default(LIVE_API_BASE_URL),
  demoTrading: z.boolean().default(false),
  locale: localeSchema.default(DEFAULT_LOCALE),
});
export type NewLiveProfile = z.input<typeof newLiveProfileSchema>;

const liveProfileSchema = z.strictObject({
  id: z.string().regex(/^live-[A-Za-z0-9_-]{1,59}$/),
  kind: z.literal('live'),
  name: z.string().min(1).max(64),
  baseUrl: baseUrlSchema,
  demoTrading: z.boolean(),
  locale: localeSchema,
});

const profilesFileSchema = z.strictObject({
  version: z.literal(1),
  selectedId: z.string(),
  paperLocale: localeSchema,
  profiles: z.array(liveProfileSchema),
});
type ProfilesFile = z.output<typeof profilesFileSchema>;

export class ProfileStore {
  private constructor(
    private readonly filePath: string,
    private state: ProfilesFile,
  ) {}

  /** Reads `profiles.json` from `userDataDir`; a first launch starts with Paper selected. */
  static async open(userDataDir: string): Promise<ProfileStore> {
    await mkdir(userDataDir, { recursive: true });
    const filePath = join(userDataDir, PROFILES_FILE_NAME);
    let text: string | null;
    try {
      text = await readFile(filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      text = null;
    }
    if (text === null) {
      return new ProfileStore(filePath, {
        version: 1,
        selectedId: PAPER_PROFILE_ID,
        paperLocale: DEFAULT_LOCALE,
        profiles: [],
      });
    }
    const parsed = profilesFileSchema.safeParse(parseJson(text));
    if (!parsed.success) {
      throw new ProfileError(
        'PROFILE_FILE_UNREADABLE',
        `The connection profiles in ${filePath} cannot be read (${parsed.error.issues[0]?.message ?? 'not JSON'}). Fix or delete the file and restart; keys in the keychain are not affected.`,
      );
    }
    const state = parsed.data;
    const known =
      state.selectedId === PAPER_PROFILE_ID || state.profiles.some((p) => p.id === state.selectedId);
    return new ProfileStore(filePath, known ? state : { ...state, selectedId: PAPER_PROFILE_ID });
  }

  /** Paper first, then the user's profiles in the order they were added. */
  list(): readonly ConnectionProfile[] {
    return [this.paper(), ...this.state.profiles];
  }

  get(profileId: string): ConnectionProfile | undefined {
    return this.list().find((profile) => profile.id === profileId);
  }

  /** Like get, but a missing profile is a ProfileError a person can act on. */
  require(profileId: string): ConnectionProfile {
    const profile = this.get(profileId);
    if (profile === undefined) {
      throw new ProfileError(
        'PROFILE_NOT_FOUND',
        `There is no connection profile "${profileId}"; it may have been removed. Pick one in Settings.`,
      );
    }
    return profile;
  }

  selectedId(): string {
    return this.state.selectedId;
  }

  selected(): ConnectionProfile {
    return this.require(this.state.selectedId);
  }

  async select(profileId: string): Promise<ConnectionProfile> {
    const profile = this.require(profileId);
    await this.save({ ...this.state, selectedId: profile.id });
    return profile;
  }

  async add(input: NewLiveProfile): Promise<LiveProfile> {
    const parsed = newLiveProfileSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') || 'profile';
      throw new ProfileError(
        'PROFILE_INVALID',
        `The profile was not saved: ${field} ${issue?.message ?? 'is invalid'}.`,
      );
    }
    const name = parsed.data.name;
    if (this.state.profiles.some((profile) => profile.name.toLowerCase() === name.toLowerCase())) {
      throw new ProfileError(
        'PROFILE_INVALID',
        `The profile was not saved: a profile named "${name}" exists.`,
      );
    }
    const profile: LiveProfile = {
      id: `live-${randomUUID()}`,
      kind: 'live',
      name,
      baseUrl: parsed.data.baseUrl,
      demoTrading: parsed.data.demoTrading,
      locale: parsed.data.locale,
    };
    await this.save({ ...this.state, profiles: [...this.state.profiles, profile] });
    return profile;
  }

  /** Removing the selected profile selects Paper. Paper itself cannot be removed. */
  async remove(profileId: string): Promise<void> {
    const profile = this.require(profileId);
    if (profile.kind === 'paper') {
      throw new ProfileError('PROFILE_INVALID', 'The built-in Paper profile cannot be removed.');
    }
    await this.save({
      ...this.state,
      selectedId: this.state.selectedId === profileId ? PAPER_PROFILE_ID : this.state.selectedId,
      profiles: this.state.profiles.filter((p) => p.id !== profileId),
    });
  }

  private paper(): PaperProfile {
    return { id: PAPER_PROFILE_ID, kind: 'paper', name: 'Paper', locale: this.state.paperLocale };
  }

  /** Write to a temporary file, flush, rename: a crash leaves the old file or the new, never half. */
  private async save(next: ProfilesFile): Promise<void> {
    const temporary = `${this.filePath}.${process.pid}.${randomUUID()}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(next, null, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.filePath);
    this.state = next;
  }
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
