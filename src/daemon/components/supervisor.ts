// The daemon's own supervision of components when no service manager is
// usable (containers, CI): spawn, send output to logs/<name>.log, restart
// with backoff when the process exits, stop on request and at shutdown.
import { appendFileSync, closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";

export interface SupervisedSpec {
  argv: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  logFile: string;
  /** Called after the process is gone for good (StopService, shutdown). */
  onStopped?: () => void;
}

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;
/** A run this long counts as healthy: the next crash restarts quickly again. */
const HEALTHY_MS = 10_000;
const STOP_GRACE_MS = 5000;

interface Child {
  spec: SupervisedSpec;
  proc?: Bun.Subprocess;
  startedAt: number;
  failures: number;
  timer?: ReturnType<typeof setTimeout>;
  stopping: boolean;
  restarts: number;
}

export class Supervisor {
  private readonly children = new Map<string, Child>();

  running(name: string): boolean {
    return this.children.has(name);
  }

  /** The pid of the current process of `name`, if one runs. */
  pid(name: string): number | undefined {
    return this.children.get(name)?.proc?.pid;
  }

  start(name: string, spec: SupervisedSpec): void {
    const child: Child = { spec, startedAt: 0, failures: 0, stopping: false, restarts: 0 };
    this.children.set(name, child);
    this.spawn(name, child);
  }

  async stop(name: string): Promise<boolean> {
    const child = this.children.get(name);
    if (!child) return false;
    child.stopping = true;
    clearTimeout(child.timer);
    this.children.delete(name);
    const proc = child.proc;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      proc.kill("SIGTERM");
      let timer: ReturnType<typeof setTimeout> | undefined;
      const killed = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          proc.kill("SIGKILL");
          resolve();
        }, STOP_GRACE_MS);
      });
      await Promise.race([proc.exited, killed]);
      clearTimeout(timer);
      await proc.exited;
    }
    note(child.spec.logFile, `stopped`);
    child.spec.onStopped?.();
    return true;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.children.keys()].map((n) => this.stop(n)));
  }

  private spawn(name: string, child: Child): void {
    const { spec } = child;
    mkdirSync(dirname(spec.logFile), { recursive: true });
    const fd = openSync(spec.logFile, "a");
    try {
      child.proc = Bun.spawn(spec.argv, { cwd: spec.cwd, env: spec.env, stdin: "ignore", stdout: fd, stderr: fd });
    } catch (err) {
      note(spec.logFile, `cannot start ${spec.argv[0]}: ${(err as Error).message}`);
      child.proc = undefined;
      this.scheduleRestart(name, child);
      return;
    } finally {
      closeSync(fd);
    }
    child.startedAt = Date.now();
    const proc = child.proc;
    void proc.exited.then((code) => {
      if (child.stopping || this.children.get(name) !== child) return;
      if (Date.now() - child.startedAt >= HEALTHY_MS) child.failures = 0;
      note(spec.logFile, `exited (${proc.signalCode ?? `code ${code}`})`);
      this.scheduleRestart(name, child);
    });
  }

  private scheduleRestart(name: string, child: Child): void {
    const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** child.failures);
    child.failures++;
    note(child.spec.logFile, `restarting in ${delay} ms`);
    child.timer = setTimeout(() => {
      if (child.stopping) return;
      child.restarts++;
      this.spawn(name, child);
    }, delay);
  }
}

/** One line of the supervisor's own in the component's log. */
function note(logFile: string, message: string): void {
  try {
    appendFileSync(logFile, `[crabtalk ${new Date().toISOString()}] ${message}\n`);
  } catch {
    // the log is best effort
  }
}
