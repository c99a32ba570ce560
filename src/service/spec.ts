// What a user service runs, independent of the service manager that runs it.
// One shape for the daemon (`crabtalk start`) and for components run as services.

export interface ServiceSpec {
  /** Reverse-DNS label: the unit name, launchd label and task name derive from it. */
  label: string;
  description: string;
  /** Absolute program path, then its arguments. */
  argv: string[];
  workingDirectory: string;
  /** Environment the service gets in addition to the manager's own. */
  env: Record<string, string>;
  /** Where launchd sends stdout/stderr (systemd has the journal). */
  logFile: string;
  /** systemd `MemoryMax=` / `MemoryHigh=` values (`512M`, `1G`, `80%`). */
  memoryMax?: string;
  memoryHigh?: string;
  /** The comment atop the definition: who wrote it and how to undo it (default: the daemon's own). */
  origin?: string;
}

export const DAEMON_LABEL = "ai.crabtalk.crabtalk";

export { MEMORY_VALUE } from "../base/memory-value.ts";
