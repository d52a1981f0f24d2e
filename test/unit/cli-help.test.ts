import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS, main } from '../../src/cli/main.ts';
import { helpRows } from '../../src/cli/output.ts';

/**
 * `--help` on every command and every group of commands, `sheaf --version`,
 * and the layout of help rows. In-process (no database is opened for help).
 */

async function sheaf(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env: {} });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** Every group: each proper prefix of a command name (`admin`, `admin key`, `backup`, ...). */
const groups = [...new Set(COMMANDS.flatMap((c) => c.name.split(' ').slice(0, -1).map((_, i, w) => w.slice(0, i + 1).join(' '))))];

describe('sheaf --help', () => {
  it('knows the groups the issue names', () => {
    for (const g of ['admin', 'admin key', 'admin workspace', 'admin user', 'admin teammate', 'admin approvals', 'admin invoice', 'admin outbox', 'backup']) {
      expect(groups).toContain(g);
    }
  });

  it.each(groups)('sheaf %s --help lists the commands of the group (exit 0)', async (group) => {
    for (const args of [[...group.split(' '), '--help'], ['help', ...group.split(' ')], [...group.split(' '), '-h']]) {
      const res = await sheaf(...args);
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
      expect(res.stdout).toContain(`Usage: sheaf ${group} <command>`);
      for (const c of COMMANDS.filter((c) => c.name.startsWith(`${group} `))) expect(res.stdout).toMatch(new RegExp(`^  ${c.name} +\\S`, 'm'));
    }
  });

  it.each(COMMANDS.map((c) => c.name))('sheaf %s --help shows its usage (exit 0)', async (name) => {
    const command = COMMANDS.find((c) => c.name === name)!;
    for (const args of [[...name.split(' '), '--help'], ['help', ...name.split(' ')]]) {
      const res = await sheaf(...args);
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
      expect(res.stdout).toContain(`Usage: sheaf ${name}${command.usage ? ` ${command.usage}` : ''} [--json]`);
    }
  });

  it('--help after options of a group or command still helps; an unknown word is still an error (exit 2)', async () => {
    expect((await sheaf('admin', 'key', '--workspace', 'x', '--help')).stdout).toContain('Usage: sheaf admin key <command>');
    expect((await sheaf('admin', 'key', 'create', '--workspace', 'x', '--help')).stdout).toContain('Usage: sheaf admin key create --workspace');
    const unknown = await sheaf('admin', 'key', 'frob', '--help');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('"sheaf admin key" takes: create, rotate, revoke, list');
    const json = await sheaf('admin', 'invoice', '--help', '--json');
    expect(JSON.parse(json.stdout).commands.map((c: { name: string }) => c.name)).toEqual([
      'admin invoice list', 'admin invoice mark-paid', 'admin invoice close', 'admin invoice void',
    ]);
  });

  it('every row of a listing starts its text in one column', async () => {
    const help = await sheaf('help');
    const rows = help.stdout.split('\n').filter((l) => /^ {2}\S/.test(l));
    expect(rows.length).toBeGreaterThan(COMMANDS.length);
    const column = new Set(rows.map((r) => /^ {2}\S.*?\S {2,}(?=\S)/.exec(r)?.[0].length));
    expect([...column]).toHaveLength(1);
    expect(help.stdout).toMatch(/^ {2}admin expense-category create {2}\S/m); // the longest name still has two spaces
  });
});

describe('sheaf --version', () => {
  it('prints the version of package.json (exit 0), also as JSON', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(await sheaf('--version')).toEqual({ code: 0, stdout: `sheaf ${version}`, stderr: '' });
    expect((await sheaf('-v')).stdout).toBe(`sheaf ${version}`);
    expect(JSON.parse((await sheaf('--version', '--json')).stdout)).toEqual({ version });
    expect((await sheaf('serve', '--version')).code).toBe(2); // an option of no command
  });
});

describe('help rows', () => {
  it('pads the names to the longest and wraps long text under its column', () => {
    const text = helpRows(
      [
        ['a', 'short'],
        ['longer name', 'one two three four five six seven eight nine ten eleven twelve'],
      ],
      40,
    );
    expect(text.split('\n')).toEqual([
      '  a            short',
      '  longer name  one two three four five',
      '               six seven eight nine ten',
      '               eleven twelve',
    ]);
  });
});
