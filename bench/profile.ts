import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { dirname } from 'node:path';

/**
 * A V8 CPU profile of this process's main thread, taken with the inspector
 * (`--cpu-prof` on a process started through bin/run-ts.js profiles tsx's
 * loader thread instead), from now until `stop` writes it to `file`.
 */
export async function startProfile(file: string, samplingMicros?: number): Promise<{ stop: () => Promise<string> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  if (samplingMicros) await session.post('Profiler.setSamplingInterval', { interval: samplingMicros });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(profile));
      return file;
    },
  };
}
