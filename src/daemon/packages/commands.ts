// `[commands.<name>]` programs (docs/packages.md#manifests, docs/packages.md): a Rust `crate`
// (`cargo install` when cargo is on PATH), an `npm` package installed with
// the Bun runtime inside our own executable, or a `bin` already on PATH.
import { existsSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { CommandConfig } from "./manifest.ts";
import { runStreaming } from "./lines.ts";

export type Progress = { kind: "step" | "warning" | "setup_output"; text: string };

/** `<home>/.cache/commands/<name>/`: where an npm command lives. */
export function npmCommandDir(home: string, name: string): string {
  return join(home, ".cache", "commands", name);
}

function cargoBin(crate: string, env: Record<string, string | undefined>): string | undefined {
  const path = join(env.HOME || homedir(), ".cargo", "bin", crate);
  return Bun.which(crate, { PATH: env.PATH ?? "" }) ?? (existsSync(path) ? path : undefined);
}

/** The program a command runs, or undefined when it is not installed. */
export function commandProgram(home: string, name: string, cmd: CommandConfig, env: Record<string, string | undefined> = process.env): string | undefined {
  if (cmd.crate) return cargoBin(cmd.crate, env);
  if (cmd.bin) return Bun.which(cmd.bin, { PATH: env.PATH ?? "" }) ?? undefined;
  return npmProgram(npmCommandDir(home, name), name);
}

/**
 * How a service runs the command: the program with its arguments (`run -v`
 * for a crate, as upstream; none otherwise, unless `args` says). An npm
 * program runs under our own Bun runtime, so Node need not be installed.
 */
export function commandLaunch(
  home: string,
  name: string,
  cmd: CommandConfig,
  env: Record<string, string | undefined> = process.env,
): { argv: string[]; env: Record<string, string> } | undefined {
  const program = commandProgram(home, name, cmd, env);
  if (!program) return undefined;
  const args = cmd.args ?? (cmd.crate ? ["run", "-v"] : []);
  if (cmd.npm) return { argv: [process.execPath, realpathSync(program), ...args], env: { BUN_BE_BUN: "1" } };
  return { argv: [program, ...args], env: {} };
}

/** Installs one command, streaming progress; returns how to undo it. Throws when it cannot be had. */
export async function* installCommand(
  home: string,
  name: string,
  cmd: CommandConfig,
  env: Record<string, string | undefined>,
): AsyncGenerator<Progress, () => Promise<void>> {
  if (cmd.bin) {
    const found = commandProgram(home, name, cmd, env);
    if (!found) throw new Error(`command '${name}': '${cmd.bin}' is not on PATH; install it first`);
    yield { kind: "step", text: `command ${name}: using ${found}` };
    return async () => {};
  }
  if (cmd.crate) {
    const crate = cmd.crate;
    if (!Bun.which("cargo", { PATH: env.PATH ?? "" })) {
      const found = cargoBin(crate, env);
      if (!found) {
        throw new Error(
          `command '${name}': cargo is not installed and '${crate}' is not on PATH or in ~/.cargo/bin: install Rust (https://rustup.rs) or the '${crate}' binary, then retry`,
        );
      }
      yield { kind: "warning", text: `command ${name}: cargo is not installed; using the '${crate}' already at ${found}` };
      return async () => {};
    }
    yield { kind: "step", text: `installing ${crate} with cargo…` };
    for await (const line of runStreaming(["cargo", "install", crate], { cwd: env.HOME || homedir(), env, what: `cargo install ${crate}` })) {
      yield { kind: "setup_output", text: line };
    }
    return async () => {
      const proc = Bun.spawn(["cargo", "uninstall", crate], { stdin: "ignore", stdout: "ignore", stderr: "ignore", env });
      await proc.exited;
    };
  }
  const spec = cmd.npm!;
  // Installed beside the current one and swapped in only when it worked: a failed
  // reinstall (--force) leaves the working command as it was.
  const dir = npmCommandDir(home, name);
  const fresh = `${dir}.new`;
  const old = `${dir}.old`;
  rmSync(fresh, { recursive: true, force: true });
  mkdirSync(fresh, { recursive: true });
  writeFileSync(join(fresh, "package.json"), JSON.stringify({ name: `crabtalk-command-${name}`, private: true }) + "\n");
  yield { kind: "step", text: `installing ${spec} with bun…` };
  try {
    // Our own executable is a Bun runtime: BUN_BE_BUN=1 makes it act as `bun`, so Node need not be installed.
    for await (const line of runStreaming([process.execPath, "add", spec], { cwd: fresh, env: { ...env, BUN_BE_BUN: "1" }, what: `installing ${spec}` })) {
      yield { kind: "setup_output", text: line };
    }
    if (!npmProgram(fresh, name)) throw new Error(`command '${name}': ${spec} installed no program`);
  } catch (err) {
    rmSync(fresh, { recursive: true, force: true });
    throw err;
  }
  rmSync(old, { recursive: true, force: true });
  const hadOld = existsSync(dir);
  if (hadOld) renameSync(dir, old);
  renameSync(fresh, dir);
  // bun's .bin links are relative, so the moved directory still works.
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (hadOld) renameSync(old, dir);
  };
}

/** The program of an npm command directory: the bin named like the command, else its only bin. */
function npmProgram(dir: string, name: string): string | undefined {
  const bin = join(dir, "node_modules", ".bin");
  if (existsSync(join(bin, name))) return join(bin, name);
  const entries = existsSync(bin) ? readdirSync(bin) : [];
  return entries.length === 1 ? join(bin, entries[0]) : undefined;
}
