/**
 * Background work of a server process (the outbox worker, the recurring-invoice
 * scheduler): `run` every `intervalMs`, one run at a time (the next is timed from
 * the end of the last), its errors to `onError`. Returns how to stop it, which
 * waits for a run in progress.
 */
export function repeatEvery(intervalMs: number, run: () => Promise<unknown>, onError: (err: unknown) => void = () => {}) {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = async () => {
    if (stopped) return;
    running = run().catch(onError);
    await running;
    if (!stopped) timer = setTimeout(tick, intervalMs);
  };
  let timer = setTimeout(tick, intervalMs);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
