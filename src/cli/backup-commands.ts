import { str, type Command } from './command.ts';
import { ServerRefusal, UsageError } from './output.ts';
import { BackupError, pullBackup, verifyBackup, type PullSummary } from './backup-client.ts';

/**
 * `sheaf backup pull --out DIR` and `sheaf backup verify DIR`: clients of the
 * backup API over HTTP (global fetch), not of the database, so they work
 * against any Sheaf server and never take the embedded database's lock. The
 * key comes from the environment (SHEAF_API_KEY), never from the command line,
 * where other users of the machine could read it.
 */

interface PullInput {
  out: string;
  url?: string;
  workspace?: string;
  perPage: number;
  retries: number;
}

const DEFAULT_URL = 'http://127.0.0.1:8080';

/** A server refusal as the CLI reports errors (exit code by status: 4xx → 2 or 3, 5xx → 1). */
function asCliError(err: unknown): unknown {
  if (err instanceof BackupError && err.status) {
    const code = typeof err.body?.error === 'string' ? err.body.error : 'http_error';
    return new ServerRefusal(code, err.message, err.status >= 500 ? 500 : err.status);
  }
  return err;
}

/** The human summary of a pull: the workspace by name and id, where it went, how much. */
export function pullSentence(s: PullSummary): string {
  const ws = s.workspace?.name ? `workspace "${s.workspace.name}" (${s.workspace.id ?? 'id unknown'})` : `workspace ${s.workspace?.id ?? '(unnamed)'}`;
  const resources = Object.keys(s.resources).length;
  return (
    `${s.resumed ? 'Finished the backup' : 'Backed up'} ${ws} into ${s.out}: ${s.records} records in ${resources} resources and ` +
    `${s.files} files in ${s.seconds.toFixed(1)} s (${s.records_per_second} records/s).`
  );
}

const pull: Command<PullInput> = {
  name: 'backup pull',
  usage: '--out DIR [--url URL] [--workspace ID] [--per-page N] [--retries N]',
  summary: 'download the workspace backup over the API into DIR (key in SHEAF_API_KEY); resumes an unfinished pull',
  options: { out: str, url: str, workspace: str, 'per-page': str, retries: str },
  parse(values) {
    if (!values.out) throw new UsageError('--out DIR is required.');
    const perPage = values['per-page'] ?? '500';
    if (!/^\d+$/.test(perPage) || Number(perPage) < 1 || Number(perPage) > 500) {
      throw new UsageError(`--per-page must be an integer from 1 to 500, not '${perPage}'.`);
    }
    if (values.url !== undefined && !/^https?:\/\/[^\s]+$/.test(values.url)) throw new UsageError(`--url must be an http(s) URL, not '${values.url}'.`);
    const retries = values.retries ?? '4';
    if (!/^\d{1,2}$/.test(retries) || Number(retries) > 10) throw new UsageError(`--retries must be an integer from 0 to 10, not '${retries}'.`);
    return { out: values.out, url: values.url, workspace: values.workspace, perPage: Number(perPage), retries: Number(retries) };
  },
  async run({ output, env = process.env }, input) {
    const key = env.SHEAF_API_KEY;
    if (!key) throw new UsageError('Set SHEAF_API_KEY to a full-access key of an owner or administrator.');
    const workspaceId = input.workspace ?? env.SHEAF_WORKSPACE_ID;
    // Said before any request: without it the server answers 401, which reads as a bad key.
    if (!workspaceId) throw new UsageError('No workspace id: give --workspace ID or set SHEAF_WORKSPACE_ID (shown beside the keys in Settings → API and Developers).');
    const baseUrl = input.url ?? env.SHEAF_URL ?? DEFAULT_URL;
    if (!/^https?:\/\/[^\s]+$/.test(baseUrl)) throw new UsageError(`SHEAF_URL must be an http(s) URL, not '${baseUrl}'.`);
    try {
      const summary = await pullBackup({
        baseUrl,
        key,
        workspaceId,
        outDir: input.out,
        perPage: input.perPage,
        retries: input.retries,
        progress: (line) => output.err(`sheaf backup: ${line}`),
      });
      if (output.json) output.out(JSON.stringify(summary, null, 2));
      else {
        output.out(pullSentence(summary));
        for (const d of summary.count_differences) output.out(`note: ${d} (the workspace changed during the pull).`);
        for (const m of summary.missing_files) output.out(`note: ${m} was deleted during the pull.`);
      }
      return 0;
    } catch (err) {
      throw asCliError(err);
    }
  },
};

const verify: Command<{ dir: string }> = {
  name: 'backup verify',
  usage: 'DIR',
  summary: 'check a pulled backup: complete against the manifest counts, every SHA-256 checksum matching',
  options: {},
  positionals: ['dir'],
  parse(values) {
    if (!values.dir) throw new UsageError('Name the backup directory: sheaf backup verify DIR.');
    return { dir: values.dir };
  },
  async run({ output }, input) {
    const result = await verifyBackup(input.dir);
    if (output.json) output.out(JSON.stringify(result, null, 2));
    else if (result.ok) {
      const records = Object.values(result.resources).reduce((n, r) => n + r.found, 0);
      output.out(`OK: ${Object.keys(result.resources).length} resources, ${records} records, ${result.files} files, all checksums match.`);
    } else {
      output.out(`FAILED: ${result.problems.length} problem(s) in ${input.dir}:`);
      for (const p of result.problems) output.out(`  ${p}`);
    }
    return result.ok ? 0 : 1;
  },
};

export const backupCommands: Command<any>[] = [pull, verify];
