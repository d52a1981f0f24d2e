/** The time source. Injected through the config so tests can move time (key rotation windows, timers). */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
