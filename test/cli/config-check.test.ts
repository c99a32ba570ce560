// config.toml as the user sees it (issues 18, 19): unknown keys are reported
// by the commands that load it, and a broken file never costs a running daemon.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { runCli } from "../support/cli.ts";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import type { FakeLLM } from "../support/fake-llm.ts";

setDefaultTimeout(60_000);

let fake: FakeLLM;
const good = () => `[provider.fake]\napi_key = "sk-check"\nbase_url = "${fake.url}"\nmodels = ["fake-model"]\n\n[system.crab]\nmodel = "fake-model"\n`;
const TYPOS = `\n[provder.x]\nmodels = ["m"]\n`;
const UNKNOWN = ["unknown key provder (did you mean provider?)", "unknown key system.crab.modle (did you mean system.crab.model?)"];

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.stop();
});

test("unknown keys are reported by start, reload, config set and doctor; the config still loads", async () => {
  const home = tempHome();
  const cli = (...args: string[]) => runCli(args, { home });
  try {
    writeFileSync(join(home, "config.toml"), good().replace('model = "fake-model"\n', 'model = "fake-model"\nmodle = "typo"\n') + TYPOS);
    const outputs: Record<string, { code: number; stdout: string; stderr: string }> = {
      start: await cli("start"),
      reload: await cli("reload"),
      "config set": await cli("config", "set", "system.crab.max_iterations", "8"),
      doctor: await cli("doctor"),
    };
    for (const [command, r] of Object.entries(outputs)) {
      for (const line of UNKNOWN) expect({ command, found: (r.stdout + r.stderr).includes(line) }).toEqual({ command, found: true });
    }
    for (const command of ["start", "reload", "config set"]) expect({ command, code: outputs[command]!.code }).toEqual({ command, code: 0 });
    expect(outputs.doctor!.stdout).toContain("fix: rename it to provider in");
    // Still loaded: the daemon runs with the known keys.
    expect(JSON.parse((await cli("stats", "--json")).stdout).active_model).toBe("fake-model");
    expect(readFileSync(join(home, "config.toml"), "utf8")).toContain("[provder.x]");
  } finally {
    await cli("stop");
    cleanup(home);
  }
});

let daemon: TestDaemon;
const pidFile = () => Number(readFileSync(join(daemon.home, "run/crabtalk.pid"), "utf8"));

test("restart with a broken config.toml refuses, naming the key, and leaves the running daemon alone", async () => {
  daemon = await startDaemon({ config: good() });
  const cli = (...args: string[]) => runCli(args, { home: daemon.home });
  try {
    const pid = pidFile();
    expect(pid).toBe(daemon.proc.pid);
    writeFileSync(join(daemon.home, "config.toml"), good().replace('model = "fake-model"\n', 'model = "fake-model"\nmax_iterations = "many"\n'));
    const r = await cli("restart");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("system.crab.max_iterations: must be an integer");
    expect(r.stderr).toContain(`the running daemon (pid ${pid}) was left as it is`);
    expect((await cli("ping")).code).toBe(0);
    expect(daemon.proc.exitCode).toBeNull();
    expect(pidFile()).toBe(pid);

    // The same for start over a daemon of another version (what an upgrade leaves running).
    writeFileSync(join(daemon.home, "run/crabtalk.version"), "0.0.1");
    const start = await cli("start");
    expect(start.code).toBe(1);
    expect(start.stderr).toContain("system.crab.max_iterations: must be an integer");
    expect((await cli("ping")).code).toBe(0);
    expect(pidFile()).toBe(pid);

    // With the file fixed, start replaces the old version's daemon.
    writeFileSync(join(daemon.home, "config.toml"), good());
    const replaced = await cli("start");
    expect(replaced.code).toBe(0);
    expect(replaced.stdout).toContain(`replacing the running daemon (crabtalk 0.0.1) with crabtalk ${pkg.version}`);
    expect(await daemon.proc.exited).toBe(0);
    expect(pidFile()).not.toBe(pid);
    expect(readFileSync(join(daemon.home, "run/crabtalk.version"), "utf8").trim()).toBe(pkg.version);
  } finally {
    await cli("stop");
    await daemon.stop();
    cleanup(daemon.home);
  }
});
