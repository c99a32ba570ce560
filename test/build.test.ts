// `bun run build` yields dist/crabtalk, which runs the daemon on its own:
// copied into an empty directory, with a fresh home and no other files.
import { expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, cleanup, startDaemon, tempHome } from "./support/daemon.ts";
import { runCli } from "./support/cli.ts";

test("the compiled binary runs `crabtalk daemon` with no other files present", async () => {
  const build = Bun.spawn([process.execPath, "run", "build"], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
  expect(await build.exited).toBe(0);
  const built = join(REPO, "dist/crabtalk");
  expect(statSync(built).mode & 0o111).not.toBe(0);

  const lonely = mkdtempSync(join(tmpdir(), "crabtalk-bin-"));
  const binary = join(lonely, "crabtalk");
  copyFileSync(built, binary);
  Bun.spawnSync(["chmod", "+x", binary]);
  const home = join(tempHome(), "home");
  const daemon = await startDaemon({ home, command: [binary] });
  try {
    expect(existsSync(join(home, "config.toml"))).toBe(true);
    const ping = await runCli(["ping"], { home, command: [binary] });
    expect(ping.code).toBe(0);
    const stats = await runCli(["--tcp", "stats", "--json"], { home, command: [binary] });
    expect(JSON.parse(stats.stdout).registered_agents).toBe(1);
  } finally {
    expect(await daemon.stop()).toBe(0);
    cleanup(home);
    cleanup(lonely);
  }
}, 120_000);
