// The service managers crabtalk can install a user service with, and which
// one this machine has: systemd (Linux), launchd (macOS), schtasks (Windows).
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { writeFileAtomicSync } from "../base/atomic-file.ts";
import { mustRun, runManager } from "./command.ts";
import type { ServiceSpec } from "./spec.ts";
import { definedProgram, launchdPlist, schtasksCreateArgs, systemdUnit } from "./templates.ts";

export const MANAGER_KINDS = ["systemd", "launchd", "schtasks", "none"] as const;
export type ManagerKind = (typeof MANAGER_KINDS)[number];

type Env = Record<string, string | undefined>;

export interface ServiceManager {
  kind: Exclude<ManagerKind, "none">;
  /** "systemd user unit", for messages. */
  noun: string;
  /** The definition's file, or the task name for schtasks. */
  definition: string;
  installed(): Promise<boolean>;
  /** The program the installed definition starts, when it can be read back. */
  program(): string | undefined;
  /** Write the definition, enable it at login and start it now. */
  install(spec: ServiceSpec): Promise<void>;
  /** Stop it and keep it from starting at login; the definition stays. */
  stop(): Promise<void>;
  /** Stop it and delete the definition. */
  remove(): Promise<void>;
}

export interface NoManager {
  kind: "none";
  /** Why there is none, for the one line `start` prints. */
  reason: string;
}

function configHome(env: Env): string {
  return env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
}

function readIfExists(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}

function writeDefinition(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomicSync(path, text, { mode: 0o644 });
}

export function systemdManager(label: string, env: Env): ServiceManager {
  const unit = `${label}.service`;
  const path = join(configHome(env), "systemd", "user", unit);
  const ctl = (...args: string[]) => ["systemctl", "--user", ...args];
  return {
    kind: "systemd",
    noun: "systemd user unit",
    definition: path,
    installed: async () => existsSync(path),
    program: () => {
      const text = readIfExists(path);
      return text === undefined ? undefined : definedProgram("systemd", text);
    },
    async install(spec) {
      writeDefinition(path, systemdUnit(spec));
      await mustRun(ctl("daemon-reload"));
      await mustRun(ctl("enable", "--now", unit));
    },
    async stop() {
      await mustRun(ctl("disable", "--now", unit));
    },
    async remove() {
      if (existsSync(path)) await runManager(ctl("disable", "--now", unit));
      rmSync(path, { force: true });
      await runManager(ctl("daemon-reload"));
    },
  };
}

export function launchdManager(label: string, env: Env): ServiceManager {
  const path = join(env.HOME || homedir(), "Library", "LaunchAgents", `${label}.plist`);
  const domain = `gui/${process.getuid?.() ?? 0}`;
  const target = `${domain}/${label}`;
  // bootout fails when the agent is not loaded, which is what we want anyway.
  const unload = () => runManager(["launchctl", "bootout", target]);
  return {
    kind: "launchd",
    noun: "launchd agent",
    definition: path,
    installed: async () => existsSync(path),
    program: () => {
      const text = readIfExists(path);
      return text === undefined ? undefined : definedProgram("launchd", text);
    },
    async install(spec) {
      writeDefinition(path, launchdPlist(spec));
      await unload();
      await mustRun(["launchctl", "enable", target]);
      await mustRun(["launchctl", "bootstrap", domain, path]);
    },
    async stop() {
      await unload();
      await mustRun(["launchctl", "disable", target]);
    },
    async remove() {
      await unload();
      rmSync(path, { force: true });
    },
  };
}

export function schtasksManager(label: string): ServiceManager {
  const task = label;
  return {
    kind: "schtasks",
    noun: "scheduled task",
    definition: task,
    installed: async () => (await runManager(["schtasks", "/Query", "/TN", task])).code === 0,
    program: () => undefined,
    async install(spec) {
      await mustRun(["schtasks", ...schtasksCreateArgs(spec, task)]);
      await mustRun(["schtasks", "/Change", "/TN", task, "/ENABLE"]);
      await mustRun(["schtasks", "/Run", "/TN", task]);
    },
    async stop() {
      await runManager(["schtasks", "/End", "/TN", task]);
      await mustRun(["schtasks", "/Change", "/TN", task, "/DISABLE"]);
    },
    async remove() {
      await runManager(["schtasks", "/End", "/TN", task]);
      await runManager(["schtasks", "/Delete", "/TN", task, "/F"]);
    },
  };
}

function managerOf(kind: Exclude<ManagerKind, "none">, label: string, env: Env): ServiceManager {
  if (kind === "systemd") return systemdManager(label, env);
  if (kind === "launchd") return launchdManager(label, env);
  return schtasksManager(label);
}

/**
 * The service manager to use: `CRABTALK_SERVICE_MANAGER` when set, else the
 * platform's own when it is usable (a user systemd bus answers; containers,
 * CI and WSL without systemd have none).
 */
export async function detectManager(label: string, env: Env = process.env): Promise<ServiceManager | NoManager> {
  const forced = env.CRABTALK_SERVICE_MANAGER;
  if (forced) {
    if (!(MANAGER_KINDS as readonly string[]).includes(forced)) {
      throw new Error(`CRABTALK_SERVICE_MANAGER=${forced}: use one of ${MANAGER_KINDS.join(", ")}`);
    }
    if (forced === "none") return { kind: "none", reason: "CRABTALK_SERVICE_MANAGER=none" };
    return managerOf(forced as Exclude<ManagerKind, "none">, label, env);
  }
  if (process.platform === "win32") return managerOf("schtasks", label, env);
  if (process.platform === "darwin") {
    return Bun.which("launchctl") ? managerOf("launchd", label, env) : { kind: "none", reason: "no launchctl" };
  }
  if (!Bun.which("systemctl")) return { kind: "none", reason: "no service manager found" };
  const probe = await runManager(["systemctl", "--user", "show-environment"], 5000).catch(() => undefined);
  if (probe?.code !== 0) return { kind: "none", reason: "no service manager found (systemd has no user session here)" };
  return managerOf("systemd", label, env);
}
