/** A FIFO async mutex: PGlite is one backend, so only one transaction may use it at a time. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  /**
   * Resolves with the release function once the caller holds the mutex. With
   * `timeoutMs`, a caller still waiting after that long is rejected with `onTimeout()`
   * instead; its place in the queue is passed on the moment it comes up.
   */
  lock(timeoutMs?: number, onTimeout?: () => Error): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const acquired = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    if (!timeoutMs) return acquired;
    return new Promise((resolve, reject) => {
      let gaveUp = false;
      const timer = setTimeout(() => {
        gaveUp = true;
        reject(onTimeout?.() ?? new Error('timed out waiting for the lock'));
      }, timeoutMs);
      void acquired.then((releaseIt) => {
        clearTimeout(timer);
        if (gaveUp) releaseIt();
        else resolve(releaseIt);
      });
    });
  }
}
