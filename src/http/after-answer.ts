import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/**
 * Work a route starts and does not wait for, because how long it takes would tell the caller
 * something (a password reset's lookup, link and e-mail take longer for an address with an
 * account). A failure is logged, not answered: the answer is out already. Closing the app waits
 * for what is under way, and `settled()` lets a caller (a test) wait for it too.
 */
export class AfterAnswer {
  readonly #underWay = new Set<Promise<void>>();

  run(log: FastifyBaseLogger, what: string, work: () => Promise<unknown>): void {
    const running: Promise<void> = work()
      .then(() => undefined)
      .catch((err: unknown) => log.error({ err }, `${what} failed after its answer`))
      .finally(() => this.#underWay.delete(running));
    this.#underWay.add(running);
  }

  async settled(): Promise<void> {
    await Promise.allSettled(this.#underWay);
  }
}

export function registerAfterAnswer(app: FastifyInstance) {
  const afterAnswer = new AfterAnswer();
  app.decorate('afterAnswer', afterAnswer);
  app.addHook('onClose', () => afterAnswer.settled());
}
