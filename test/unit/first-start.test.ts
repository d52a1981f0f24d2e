import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CREDENTIALS_FILE, deliverFirstStart } from '../../src/cli/first-start.ts';
import type { FirstStart } from '../../src/bootstrap.ts';

/** Where the first start's one-time key goes: the terminal, or a 0600 file when stdout is a log stream. */

const first: FirstStart = {
  workspace_id: '01a204ab-c43f-702c-933d-56c325c0f305',
  workspace_name: 'My workspace',
  owner_email: 'owner@example.com',
  key_id: '01a204ab-c43f-702c-933d-56c325c0f306',
  key: 'sheaf_fa_secretsecretsecret',
  sign_in_token: 'onetimesignintokenonetimesignintokenonetim',
};
const url = 'http://127.0.0.1:8080';
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function setup(tty: boolean, json = false, notADirectory = false) {
  const dir = mkdtempSync(join(tmpdir(), 'sheaf-first-start-'));
  dirs.push(dir);
  // A DATA_DIR that cannot take a file (a plain file in its place; a read-only directory would not stop root).
  const dataDir = notADirectory ? join(dir, 'plain-file') : dir;
  if (notADirectory) writeFileSync(dataDir, '');
  const out: string[] = [];
  const err: string[] = [];
  const logs: Array<[string, object, string]> = [];
  const log = { warn: (o: object, m: string) => void logs.push(['warn', o, m]), error: (o: object, m: string) => void logs.push(['error', o, m]) };
  const deliver = () => deliverFirstStart({ first, url, dataDir, tty, output: { json, out: (t) => out.push(t), err: (t) => err.push(t) }, log });
  return { dataDir, out, err, logs, deliver, everything: () => JSON.stringify([out, err, logs]) };
}

describe('first start key delivery', () => {
  it('on a terminal: printed (key, workspace id, curl line); no file', async () => {
    const s = setup(true);
    await s.deliver();
    expect(s.out.join('\n')).toContain(`API key:      ${first.key}`);
    expect(s.out.join('\n')).toContain(`${url}/sign-in/link#${first.sign_in_token}`);
    expect(s.out.join('\n')).toContain(`curl -H "Authorization: Bearer ${first.key}" -H "Service-Account-Id: ${first.workspace_id}" ${url}/api/v2/users/me`);
    expect(readdirSync(s.dataDir)).toEqual([]);
  });

  it('not a terminal: written once to DATA_DIR with mode 0600; stdout and the log name the file, never the key', async () => {
    const s = setup(false);
    await s.deliver();
    const path = join(s.dataDir, CREDENTIALS_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain(`Workspace id: ${first.workspace_id}`);
    expect(text).toContain(`API key:      ${first.key}`);
    expect(text).toContain(`curl -H "Authorization: Bearer ${first.key}"`);
    expect(s.everything()).not.toContain(first.key);
    expect(s.logs).toEqual([['warn', { workspace_id: first.workspace_id, credentials_file: path }, expect.stringContaining(path)]]);
    expect(s.out).toEqual([expect.stringContaining(`its full-access API key is in ${path}`)]);
  });

  it('never overwrites an earlier credentials file: the second one is named after the workspace', async () => {
    const s = setup(false);
    writeFileSync(join(s.dataDir, CREDENTIALS_FILE), 'an earlier key\n', { mode: 0o644 });
    await s.deliver();
    expect(readFileSync(join(s.dataDir, CREDENTIALS_FILE), 'utf8')).toBe('an earlier key\n');
    const other = join(s.dataDir, `first-start-credentials-${first.workspace_id}.txt`);
    expect(statSync(other).mode & 0o777).toBe(0o600);
    expect(readFileSync(other, 'utf8')).toContain(first.key);
  });

  it('--json not on a terminal: the first_start event names the file instead of carrying the key', async () => {
    const s = setup(false, true);
    await s.deliver();
    expect(s.out.map((l) => JSON.parse(l))).toEqual([
      {
        event: 'first_start',
        workspace_id: first.workspace_id,
        workspace_name: first.workspace_name,
        owner_email: first.owner_email,
        key_id: first.key_id,
        credentials_file: join(s.dataDir, CREDENTIALS_FILE),
      },
    ]);
    expect(s.everything()).not.toContain(first.key);
  });

  it('a DATA_DIR it cannot write to: an error naming the repair, and still no key anywhere', async () => {
    const s = setup(false, false, true);
    await s.deliver();
    expect(s.logs[0][0]).toBe('error');
    expect(s.err.join('\n')).toContain(`sheaf admin key create --workspace ${first.workspace_id} --user owner@example.com`);
    expect(s.everything()).not.toContain(first.key);
  });
});
