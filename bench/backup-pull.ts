/**
 * The pulling client of bench/backup.ts, in a process of its own as `sheaf
 * backup pull` is: it loads the backup client and nothing else, so its heap
 * (which every full garbage collection marks) and its RSS are the CLI's, not
 * those of the driver that seeded the database with the whole app loaded.
 *
 * Forked by bench/backup.ts; it receives a PullJob, runs pullBackup and
 * answers with a PullResult.
 */
import { join } from 'node:path';
import { pullBackup, type PullSummary } from '../src/cli/backup-client.ts';
import { startProfile } from './profile.ts';

export interface PullJob {
  baseUrl: string;
  key: string;
  workspaceId: string;
  outDir: string;
  perPage: number;
  /** Where to write a V8 CPU profile of the pull, if anywhere. */
  profileDir: string | null;
}

export interface PullResult {
  summary: PullSummary;
  seconds: number;
  cpuSeconds: number;
  cpuSecondsPull: number;
  cpuSecondsPullSystem: number;
  peakRssMiB: number;
  /** The RSS after every page of time entries (MiB), and the page at which each quarter of them began. */
  rss: number[];
  quarterStarts: number[];
}

const MiB = 1024 * 1024;

async function pull(job: PullJob): Promise<PullResult> {
  const profile = job.profileDir ? await startProfile(join(job.profileDir, 'backup-client.cpuprofile')) : undefined;
  const rss: number[] = [];
  const quarterStarts: number[] = [];
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const summary = await pullBackup({
    baseUrl: job.baseUrl,
    key: job.key,
    workspaceId: job.workspaceId,
    outDir: job.outDir,
    perPage: job.perPage,
    progress: (line) => {
      const m = /^time_entries: (\d+)\/(\d+)$/.exec(line);
      if (!m) return;
      const quarter = Math.min(4, Math.floor((4 * Number(m[1])) / Number(m[2])));
      while (quarterStarts.length <= quarter) quarterStarts.push(rss.length);
      rss.push(process.memoryUsage.rss() / MiB);
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const pullCpu = process.cpuUsage(cpuBefore);
  await profile?.stop();
  const cpu = process.cpuUsage();
  return {
    summary,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    cpuSecondsPull: (pullCpu.user + pullCpu.system) / 1e6,
    cpuSecondsPullSystem: pullCpu.system / 1e6,
    peakRssMiB: Math.round((process.resourceUsage().maxRSS * 1024) / MiB),
    rss,
    quarterStarts,
  };
}

process.once('message', (job: PullJob) => {
  pull(job).then(
    (result) => process.send!(result, () => process.exit(0)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
