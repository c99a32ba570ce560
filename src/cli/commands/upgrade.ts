// upgrade: download a release's binary, check it as install.sh does
// (SHA256SUMS, then that it runs), swap it in with one rename, and restart
// the daemon when it was running so it runs the new version.
import type { Command } from "commander";
import { chmodSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { TARGET, VERSION, versionLine } from "../../version.ts";
import { daemonAnswers, isCompiled, startDaemon, stopDaemon } from "../daemon-control.ts";
import { downloadTo, expectedSum, fetchSums, releaseBaseUrl, sha256File } from "../upgrade/release.ts";
import { action } from "./run.ts";

const say = (line: string) => console.log(line);

/** What `<binary> --version` prints, if it runs here at all. */
function versionOf(binary: string): string | undefined {
  const run = Bun.spawnSync([binary, "--version"], { stdout: "pipe", stderr: "ignore", timeout: 30_000 });
  const line = run.stdout.toString().trim().split("\n")[0] ?? "";
  return run.exitCode === 0 && line.startsWith("crabtalk ") ? line : undefined;
}

/** "Upgraded" or "Downgraded", by the version word of each `--version` line. */
function verb(fromLine: string, toLine: string): string {
  const word = (line: string) => line.split(" ")[1] ?? "";
  try {
    return Bun.semver.order(word(fromLine), word(toLine)) > 0 ? "Downgraded" : "Upgraded";
  } catch {
    return "Upgraded";
  }
}

export async function upgrade(opts: { version?: string }, env: Record<string, string | undefined> = process.env): Promise<number> {
  if (process.platform === "win32") throw new Error("on Windows, download crabtalk-windows-x64.exe from the release and replace this one with it");
  if (!isCompiled()) throw new Error("running from source: there is no installed binary to upgrade (update the checkout, or use install.sh)");
  const version = opts.version?.replace(/^v/, "");
  if (version !== undefined && !/^[0-9A-Za-z][0-9A-Za-z.+-]*$/.test(version)) throw new Error(`'${opts.version}' is not a version, e.g. --version 0.2.0`);
  const binary = realpathSync(process.execPath);
  const target = env.CRABTALK_INSTALL_TARGET || TARGET;
  const asset = `crabtalk-${target}`;
  const base = releaseBaseUrl(env, version);
  const release = `release ${version ?? "latest"}`;
  const current = versionLine();

  say(`Downloading ${asset} from ${base}`);
  const expected = expectedSum(await fetchSums(base, release), asset);
  if (!expected)
    throw new Error(
      `SHA256SUMS at ${base} lists no ${asset}; ${release} has no build for ${target} (set CRABTALK_INSTALL_TARGET to pick another, or try another --version)`,
    );
  if ((await sha256File(binary)) === expected) {
    say(`crabtalk is already up to date: ${current}`);
    return 0;
  }
  // Next to the binary, so that the swap is one rename on the same file system.
  const temp = join(dirname(binary), `.crabtalk-upgrade.${process.pid}.bin`);
  try {
    writeFileSync(temp, "", { mode: 0o600 });
  } catch {
    throw new Error(`cannot write to ${dirname(binary)} (permission denied?): nothing was changed`);
  }
  const interrupted = (code: number) => () => {
    rmSync(temp, { force: true });
    process.exit(code);
  };
  const onInt = interrupted(130);
  const onTerm = interrupted(143);
  process.once("SIGINT", onInt);
  process.once("SIGTERM", onTerm);
  try {
    await downloadTo(`${base}/${asset}`, temp);
    const actual = await sha256File(temp);
    if (actual !== expected) {
      throw new Error(`checksum mismatch for ${asset} (expected ${expected}, got ${actual}): the download is corrupt or tampered with; nothing was changed`);
    }
    chmodSync(temp, 0o755);
    const next = versionOf(temp);
    if (!next)
      throw new Error(
        `the downloaded ${asset} does not run on this machine; nothing was changed (set CRABTALK_INSTALL_TARGET, e.g. linux-x64-baseline, to pick another build)`,
      );
    if (next === current) {
      say(`crabtalk is already up to date: ${current}`);
      return 0;
    }
    const running = await daemonAnswers();
    renameSync(temp, binary);
    say(`${verb(current, next)} ${binary}: ${current} -> ${next}`);
    if (running) {
      say(`restarting the daemon, which ran ${VERSION}`);
      await stopDaemon(() => {}, env);
      await startDaemon(say, env);
    } else {
      say("the daemon is not running; 'crabtalk start' starts the new version");
    }
    return 0;
  } finally {
    rmSync(temp, { force: true });
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
  }
}

export function registerUpgradeCommand(program: Command): void {
  program
    .command("upgrade")
    .description("download the latest release (or --version X), check it against SHA256SUMS, replace this binary and restart the daemon")
    .option("--version <X>", "install release X instead of the latest (also a downgrade)")
    .addHelpText(
      "after",
      `
The build is the one this binary was made for (CRABTALK_INSTALL_TARGET picks
another); it comes from the same place as the installer's: CRABTALK_DOWNLOAD_URL,
a directory URL holding the release's assets and SHA256SUMS, when set.
A download that does not match SHA256SUMS, or does not run, changes nothing:
this binary and the running daemon stay as they are.

Examples:
  crabtalk upgrade
  crabtalk upgrade --version 0.2.0`,
    )
    .action(action(async (opts: { version?: string }) => upgrade(opts)));
}
