// `bun run build` yields dist/crabtalk, which runs the daemon on its own:
// copied into an empty directory, with a fresh home and no other files.
import { expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanup, startDaemon, tempHome } from "./support/daemon.ts";
import { compiledBinary } from "./support/binary.ts";
import pkg from "../package.json" with { type: "json" };
import { runCli } from "./support/cli.ts";

test("the compiled binary runs `crabtalk daemon` with no other files present", async () => {
  const built = await compiledBinary();
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
    expect(JSON.parse(stats.stdout).version).toBe(pkg.version);
    // The build stamps the commit it was made from.
    const version = await runCli(["--version"], { home, command: [binary] });
    const sha = Bun.spawnSync(["git", "rev-parse", "--short=9", "HEAD"]).stdout.toString().trim();
    expect(version.stdout.trim()).toMatch(new RegExp(`^crabtalk ${pkg.version.replace(/\./g, "\\.")} \\(${sha}(-dirty)?, linux-(x64|arm64)\\)$`));
    // The fast path's stamped help is the full CLI's, word for word.
    const help = await runCli(["--help"], { home, command: [binary] });
    const fullHelp = await runCli(["--help"], { home });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("crabtalk send");
    expect(help.stdout).toBe(fullHelp.stdout);
  } finally {
    expect(await daemon.stop()).toBe(0);
    cleanup(home);
    cleanup(lonely);
  }
}, 120_000);
