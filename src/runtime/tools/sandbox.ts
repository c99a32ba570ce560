// The command line that runs a tool process inside the sandbox the daemon
// chose (docs/security.md "Tool sandbox"): bubblewrap on Linux, sandbox-exec
// on macOS. Read-only filesystem but the working directory, the writable
// paths and a private /tmp; hidden paths invisible; network optional.
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import type { SandboxDecision, SandboxSpec } from "../tool-policy.ts";

export type Argv = [string, ...string[]];

/**
 * Where the running crabtalk lives: the directory of its executable (the
 * compiled binary, or Bun's) and, when run from source, the checkout.
 */
const OWN_PROGRAM: readonly string[] = [
  real(dirname(process.execPath)),
  ...(import.meta.dir.startsWith("/$bunfs") ? [] : [real(resolve(import.meta.dir, "../../.."))]),
];

/** util-linux's setsid, which bwrapArgs relies on when present. */
const SETSID = Bun.which("setsid");

/**
 * The argv running `inner` under `decision` with `cwd` writable, or an error
 * message when it cannot run (refused, or the working directory is hidden).
 */
export function sandboxedArgv(decision: SandboxDecision, cwd: string, inner: Argv): { argv: Argv } | { error: string } {
  switch (decision.kind) {
    case "none":
      return { argv: inner };
    case "refuse":
      return { error: decision.message };
    case "bwrap":
    case "sandbox-exec": {
      const dir = real(cwd);
      if (decision.spec.hidden.some((h) => within(dir, real(h)))) {
        return { error: `the working directory ${cwd} is inside a path the sandbox hides (the crabtalk home or a credential store)` };
      }
      if (decision.kind === "sandbox-exec") return { argv: [decision.command, "-p", sandboxExecProfile(decision.spec, dir), ...inner] };
      return { argv: [decision.command, ...bwrapArgs(decision.spec, dir), "--", ...(SETSID ? [SETSID] : []), ...inner] };
    }
  }
}

/** bubblewrap options: later mounts win, so hidden paths are mounted last. */
export function bwrapArgs(spec: SandboxSpec, cwd: string): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  // crabtalk's own program stays visible (read-only) when it lives under /tmp, as a
  // checkout or a test build may: a tool calling `crabtalk`, or a sandboxed MCP
  // server run by crabtalk's runtime, needs it. Hidden paths still win below.
  for (const path of OWN_PROGRAM) {
    if (within(path, "/tmp") && existsSync(path)) args.push("--ro-bind", path, path);
  }
  for (const path of [cwd, ...spec.writable]) {
    if (existsSync(path)) args.push("--bind", path, path);
  }
  for (const path of spec.hidden) {
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) args.push("--tmpfs", path, "--remount-ro", path);
    else args.push("--ro-bind", "/dev/null", path);
  }
  args.push("--unshare-pid", "--unshare-ipc", "--die-with-parent");
  // The command gets a session of its own (no controlling terminal to inject
  // keystrokes into). setsid inside the sandbox does it for the command alone:
  // bwrap's own --new-session would take the sandbox's first process out of
  // the caller's process group too, and a kill during bwrap's start-up could
  // then miss it and leave the command running (docs/tools.md#bash).
  if (!SETSID) args.push("--new-session");
  if (!spec.network) args.push("--unshare-net");
  args.push("--chdir", cwd);
  return args;
}

/** A macOS sandbox profile (SBPL) with the same promises. Written to the documented format; not tested on macOS. */
export function sandboxExecProfile(spec: SandboxSpec, cwd: string): string {
  const q = (p: string) => JSON.stringify(p);
  const tmp = ["/private/tmp", "/private/var/folders"];
  const lines = [
    "(version 1)",
    "(allow default)",
    "(deny file-write*)",
    `(allow file-write* ${[cwd, ...spec.writable, ...tmp].map((p) => `(subpath ${q(p)})`).join(" ")} (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))`,
  ];
  if (spec.hidden.length > 0) {
    lines.push(`(deny file-read* file-write* ${spec.hidden.map((p) => `(subpath ${q(p)})`).join(" ")})`);
  }
  if (!spec.network) lines.push("(deny network*)");
  return lines.join("\n");
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}
