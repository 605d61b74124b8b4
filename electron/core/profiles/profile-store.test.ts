import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LIVE_API_BASE_URL,
  PAPER_PROFILE_ID,
  PROFILES_FILE_NAME,
  ProfileError,
  ProfileStore,
} from './profile-store';

const folders: string[] = [];
async function userDataDir(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'profiles-'));
  folders.push(folder);
  return folder;
}
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe('ProfileStore', () => {
  it('starts on a first launch with the built-in Paper profile selected', async () => {
    const store = await ProfileStore.open(await userDataDir());
    expect(store.list().map((profile) => profile.id)).toEqual([PAPER_PROFILE_ID]);
    expect(store.selected()).toMatchObject({ kind: 'paper', name: 'Paper' });
  });

  it('keeps added profiles and the selection across restarts, with no secret in the file', async () => {
    const dir = await userDataDir();
    const store = await ProfileStore.open(dir);
    const live = await store.add({ name: 'Main account' });
    const demo = await store.add({ name: 'Demo', demoTrading: true, locale: 'zh-CN' });
    await store.select(demo.id);

    expect(live).toMatchObject({ baseUrl: LIVE_API_BASE_URL, demoTrading: false, locale: 'en-US' });
    const reopened = await ProfileStore.open(dir);
    expect(reopened.list().map((profile) => profile.name)).toEqual(['Paper', 'Main account', 'Demo']);
    expect(reopened.selected()).toEqual(demo);
    const text = await readFile(join(dir, PROFILES_FILE_NAME), 'utf8');
    expect(text).not.toMatch(/secret|passphrase|apiKey/i);
    // The atomic write leaves no temporary file behind.
    expect(await readdir(dir)).toEqual([PROFILES_FILE_NAME]);
  });

  it('refuses insecure or malformed addresses and names with a message saying why', async () => {
    const store = await ProfileStore.open(await userDataDir());
    await expect(store.add({ name: 'Plain', baseUrl: 'http://api.bitget.com' })).rejects.toThrow(
      /baseUrl must be an https:\/\/ address/,
    );
    await expect(store.add({ name: 'paper' })).rejects.toThrow(/taken by the built-in Paper profile/);
    await expect(store.add({ name: '  ' })).rejects.toBeInstanceOf(ProfileError);
    await store.add({ name: 'Local', baseUrl: 'http://127.0.0.1:4000/' });
    await expect(store.add({ name: 'LOCAL' })).rejects.toThrow(/named "LOCAL" exists/);
    expect(store.list().find((profile) => profile.name === 'Local')).toMatchObject({
      baseUrl: 'http://127.0.0.1:4000',
    });
  });

  it('selects Paper again when the selected profile is removed, and never removes Paper', async () => {
    const store = await ProfileStore.open(await userDataDir());
    const live = await store.add({ name: 'Live' });
    await store.select(live.id);
    await store.remove(live.id);
    expect(store.selectedId()).toBe(PAPER_PROFILE_ID);
    await expect(store.remove(PAPER_PROFILE_ID)).rejects.toThrow(/cannot be removed/);
    await expect(store.select('live-missing')).rejects.toMatchObject({ code: 'PROFILE_NOT_FOUND' });
  });

  it('says which file is damaged instead of starting over silently', async () => {
    const dir = await userDataDir();
    await writeFile(join(dir, PROFILES_FILE_NAME), '{"version":1,');
    await expect(ProfileStore.open(dir)).rejects.toMatchObject({ code: 'PROFILE_FILE_UNREADABLE' });
  });
});
