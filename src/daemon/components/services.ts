// StartService, StopService, ServiceLogs (docs/packages.md#services): a command of an
// installed package run as a user service `ai.crabtalk.<name>` with the same
// service machinery as the daemon's own (systemd, launchd, schtasks), or,
// when no service manager is usable, supervised by the daemon itself.
import { closeSync, existsSync, fstatSync, openSync, readSync, rmSync } from "node:fs";
import { join } from "node:path";
import { badRequest, internal, notFound } from "../../protocol/errors.ts";
import { detectManager } from "../../service/managers.ts";
import type { ServiceSpec } from "../../service/spec.ts";
import type { Env } from "../../config/expand.ts";
import { userHome, type HomePaths } from "../../base/home-paths.ts";
import { commandLaunch } from "../packages/commands.ts";
import { listInstalled } from "../packages/installed.ts";
import type { CommandConfig } from "../packages/manifest.ts";
import { Supervisor } from "./supervisor.ts";
import { SupervisedList } from "./supervised-list.ts";
import type { RuntimeLog } from "../../base/runtime-log.ts";

const NAME = /^[A-Za-z0-9._-]{1,100}$/;
const DEFAULT_LOG_LINES = 50;
const LOG_TAIL_BYTES = 1 << 20;

export function serviceLabel(name: string): string {
  return `ai.crabtalk.${name}`;
}

/** A service name is a command name: a plain word, never a path. */
export function checkServiceName(name: string): void {
  if (!NAME.test(name) || name === "." || name === "..") {
    throw badRequest(`invalid service name '${name}': use letters, digits, '.', '_' or '-'`);
  }
}

export class Services {
  readonly supervisor = new Supervisor();
  private readonly remembered: SupervisedList;

  constructor(
    private readonly paths: HomePaths,
    private readonly env: Env,
  ) {
    this.remembered = new SupervisedList(join(paths.home, "services.toml"));
  }

  async start(name: string, force: boolean): Promise<void> {
    const cmd = this.command(name);
    const label = serviceLabel(name);
    const manager = await detectManager(label, this.env);
    const running = manager.kind === "none" ? this.supervisor.running(name) : await manager.installed();
    if (running && !force) throw badRequest(`service '${name}' is already running, use force to restart`);
    const launch = commandLaunch(this.paths.home, name, cmd, this.env);
    if (!launch) throw internal(`command '${name}' is not installed: reinstall its package (crabtalk pull <scope/name> --force)`);
    const spec: ServiceSpec = {
      label,
      description: `crabtalk component ${name}${cmd.description ? `: ${cmd.description}` : ""}`,
      argv: launch.argv,
      // The user's home, as the daemon's: never the crabtalk home (docs/packages.md).
      workingDirectory: userHome(this.env),
      env: { PATH: this.env.PATH ?? "", CRABTALK_HOME: this.paths.home, ...launch.env },
      logFile: this.paths.serviceLog(name),
      origin: `Written by the crabtalk daemon (StartService '${name}'); \`crabtalk service stop ${name}\` removes it.`,
    };
    if (manager.kind === "none") {
      await this.supervisor.stop(name);
      this.supervise(name, spec);
      this.remembered.add(name);
      return;
    }
    if (running) await manager.remove();
    await manager.install(spec);
    this.remembered.delete(name); // the manager keeps it now
  }

  async stop(name: string): Promise<void> {
    checkServiceName(name);
    if (!(await this.stopIfRunning(name))) throw notFound(`service '${name}' is not running`);
  }

  /** Stops and uninstalls the service if it is there; true when it was. */
  async stopIfRunning(name: string): Promise<boolean> {
    let stopped = await this.supervisor.stop(name);
    this.remembered.delete(name);
    const manager = await detectManager(serviceLabel(name), this.env);
    if (manager.kind !== "none" && (await manager.installed())) {
      await manager.remove();
      stopped = true;
    }
    if (stopped) rmSync(this.paths.componentPort(name), { force: true });
    return stopped;
  }

  /** The last `lines` (0 → 50) lines of logs/<name>.log. */
  logs(name: string, lines: number): string {
    checkServiceName(name);
    const path = this.paths.serviceLog(name);
    if (!existsSync(path)) return `no logs yet: ${path}`;
    const all = tail(path).split("\n");
    if (all.at(-1) === "") all.pop();
    return all.slice(-(lines || DEFAULT_LOG_LINES)).join("\n");
  }

  /**
   * Starts again what the daemon supervised when it last stopped (a service
   * manager would have kept it running); a command no longer installed is
   * forgotten. Failures are reported, never fatal.
   */
  async resume(log: RuntimeLog): Promise<void> {
    for (const name of this.remembered.names()) {
      try {
        await this.start(name, true);
      } catch (err) {
        this.remembered.delete(name);
        log.warn(`service '${name}' not restarted: ${(err as Error).message}`);
      }
    }
  }

  /** Stops the supervised components; they are started again by the next daemon (resume). */
  shutdown(): Promise<void> {
    return this.supervisor.stopAll();
  }

  private supervise(name: string, spec: ServiceSpec): void {
    this.supervisor.start(name, {
      argv: spec.argv,
      cwd: spec.workingDirectory,
      env: { ...this.env, ...spec.env },
      logFile: spec.logFile,
      onStopped: () => rmSync(this.paths.componentPort(name), { force: true }),
    });
  }

  private command(name: string): CommandConfig {
    checkServiceName(name);
    for (const pkg of listInstalled(this.paths.packages, this.paths.cacheRepos)) {
      const cmd = pkg.manifest.commands[name];
      if (cmd) return cmd;
    }
    throw notFound(`no installed package has a command '${name}'`);
  }
}

/** The end of a file (at most 1 MiB), so a huge log is not read whole. */
function tail(path: string): string {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, LOG_TAIL_BYTES);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, size - length);
    return buf.toString("utf8");
  } finally {
    closeSync(fd);
  }
}
