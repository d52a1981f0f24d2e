/** Messages between a benchmark driver (bench/users-me.ts, time-entries.ts, projects-list.ts and others, through forkServer) and its server process (bench/servers.ts). */

export interface ReadyMessage {
  type: 'ready';
  /** The real Sheaf app (buildApp). */
  sheafUrl: string;
  /** The bare Fastify instance sharing Sheaf's database pool. */
  baselineUrl: string;
  /** Authorization and Service-Account-Id of the seeded owner's full-access key. */
  headers: Record<string, string>;
  companyId: string;
  companyName: string;
  poolSize: number;
  postgresVersion: string;
}

export interface FailedMessage {
  type: 'failed';
  message: string;
}

export interface UsageMessage {
  type: 'usage';
  seq: number;
  /** process.cpuUsage() of the server process, microseconds (user + system). */
  cpuMicros: number;
  /** performance.eventLoopUtilization().utilization since process start, 0..1, as raw idle/active ms. */
  eluIdle: number;
  eluActive: number;
  /** Monotonic clock, milliseconds. */
  now: number;
}

export type ServerMessage = ReadyMessage | FailedMessage | UsageMessage;

/** A statement the baseline's list route runs, as a list benchmark captured it from the app. */
export interface Statement {
  sql: string;
  parameters: unknown[];
}

export type DriverMessage =
  | { type: 'usage'; seq: number }
  | { type: 'stop' }
  /** What GET /baseline/statements runs from now on, in a tenant transaction of `companyId`. */
  | { type: 'statements'; companyId: string; statements: Statement[] };
