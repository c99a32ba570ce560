// What the runtime and the daemon's parts report through instead of a `warn`
// closure threaded through constructors (docs/architecture.md#how-the-runtime-reports):
// the daemon's logger fits it and is handed over once; a bare runtime's is silent.
export type LogFields = Record<string, unknown>;

export interface RuntimeLog {
  warn(msg: string, fields?: LogFields): void;
}

/** For runtimes without a daemon (tests, one-off tools) and for passes whose warnings were already given. */
export const SILENT_LOG: RuntimeLog = { warn() {} };
