// crabtalk doctor: exit 0 on a healthy home, a named fix for each problem.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { runCli } from "../support/cli.ts";
import { fakeServiceManager } from "../support/fake-service-manager.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";

const GOOD = '[provider.openai]\napi_key = "sk-doctor"\nmodels = ["gpt-4o"]\n\n[system.crab]\nmodel = "gpt-4o"\n';
let daemon: TestDaemon;
const doctor = (env?: Record<string, string>) => runCli(["doctor"], { home: daemon.home, env });
/** What doctor reports of keys and the model is what the daemon has loaded. */
async function reloadWith(config: string): Promise<void> {
  writeFileSync(join(daemon.home, "config.toml"), config);
  const r = await runCli(["reload"], { home: daemon.home });
  if (r.code !== 0) throw new Error(`reload failed: ${r.stderr}`);
}

beforeAll(async () => {
  daemon = await startDaemon({ config: GOOD });
});
afterAll(async () => {
  await daemon.stop();
  cleanup(daemon.home);
});

test("a healthy home with a running daemon passes every check", async () => {
  const r = await doctor();
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("✓ crabtalk ");
  expect(r.stdout).toContain(`✓ ${daemon.home}/config.toml is valid`);
  expect(r.stdout).toContain("✓ provider openai (openai) has its key");
  expect(r.stdout).toMatch(/✓ the daemon answers \([\d.]+ ms\)/);
  expect(r.stdout).toContain("✓ the daemon and the CLI are both ");
  expect(r.stdout).not.toContain("✗");
  expect(r.stdout).not.toContain("sk-doctor");
  expect(r.stdout.trimEnd().endsWith("no problems found")).toBe(true);
  const json = JSON.parse((await runCli(["doctor", "--json"], { home: daemon.home })).stdout);
  expect(json.ok).toBe(true);
});

test("a broken config.toml fails, naming the key and the fix", async () => {
  writeFileSync(join(daemon.home, "config.toml"), '[provider.openai]\napi_key = "sk-doctor"\nmodels = []\n');
  try {
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("✗ config.toml: provider.openai.models: must list at least one model");
    expect(r.stdout).toContain(`fix: edit ${daemon.home}/config.toml, then: crabtalk reload`);
    expect(r.stdout).toContain("1 problem found");
  } finally {
    writeFileSync(join(daemon.home, "config.toml"), GOOD);
  }
});

test("provider keys are checked in the daemon, not in doctor's shell; [env] in config.toml gives the daemon a key", async () => {
  const fake = await startFakeOpenAI();
  const withKey = (extra = "") =>
    `[provider.fake]\napi_key = "\${DOCTOR_TEST_KEY}"\nbase_url = "${fake.url}"\nmodels = ["fake-model"]\n\n[system.crab]\nmodel = "fake-model"\n${extra}`;
  try {
    // The daemon was started without DOCTOR_TEST_KEY; doctor's own shell has it.
    await reloadWith(withKey());
    const missing = await doctor({ DOCTOR_TEST_KEY: "sk-in-my-shell" });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain("✗ provider fake: api_key uses ${DOCTOR_TEST_KEY}, which the daemon has no value for: it would call fake without a key");
    expect(missing.stdout).toContain("fix: the daemon has the environment of the shell that started it: export DOCTOR_TEST_KEY there");
    expect(missing.stdout).toContain(`write DOCTOR_TEST_KEY = "…" under [env] in ${daemon.home}/config.toml`);
    expect(missing.stdout).not.toContain("sk-in-my-shell");
    // A daemon run as a systemd unit: the fix is the unit's Environment=.
    const sm = fakeServiceManager();
    const systemd = await doctor(sm.env({ CRABTALK_SERVICE_MANAGER: "systemd", DOCTOR_TEST_KEY: "sk-in-my-shell" }));
    expect(systemd.stdout).toContain("systemctl --user edit ai.crabtalk.crabtalk, add [Service] Environment=DOCTOR_TEST_KEY=…");

    await reloadWith(withKey('\n[env]\nDOCTOR_TEST_KEY = "sk-from-env-table"\n'));
    const found = await doctor();
    expect(found.stdout).toContain("✓ provider fake (openai) has its key: api_key from [env] in config.toml (DOCTOR_TEST_KEY)");
    expect(found.stdout).not.toContain("sk-from-env-table");
    // And the daemon sends that key.
    fake.script({ text: "keyed" });
    expect((await runCli(["send", "hi"], { home: daemon.home })).code).toBe(0);
    expect(fake.requests.at(-1)?.headers.authorization).toBe("Bearer sk-from-env-table");
  } finally {
    await reloadWith(GOOD);
    await fake.stop();
  }
});

test("no model configured is a failure with the fix", async () => {
  try {
    await reloadWith('[provider.openai]\napi_key = "sk-doctor"\nmodels = ["gpt-4o"]\n');
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("✗ no model configured: every run would fail");
    expect(r.stdout).toContain("fix: run `crabtalk models use MODEL` with one of gpt-4o");
  } finally {
    await reloadWith(GOOD);
  }
});

test("Bedrock without static keys uses the AWS credential chain; half a key pair is refused with the config", async () => {
  await reloadWith(`${GOOD}\n[provider.aws]\nkind = "bedrock"\nregion = "us-east-1"\nmodels = ["nova"]\n`);
  try {
    const r = await doctor();
    expect(r.stdout).toContain("✓ provider aws (bedrock) uses the AWS default credential chain");
    writeFileSync(
      join(daemon.home, "config.toml"),
      `${GOOD}\n[provider.aws]\nkind = "bedrock"\nregion = "us-east-1"\naccess_key = "AKID"\nmodels = ["nova"]\n`,
    );
    const half = await doctor();
    expect(half.code).toBe(1);
    expect(half.stdout).toContain("provider.aws.secret_key: required for kind 'bedrock'");
  } finally {
    await reloadWith(GOOD);
  }
});

test("a service definition that runs another binary fails, with restart as the fix", async () => {
  const xdg = mkdtempSync(join(tmpdir(), "crabtalk-xdg-"));
  try {
    mkdirSync(join(xdg, "systemd/user"), { recursive: true });
    writeFileSync(join(xdg, "systemd/user/ai.crabtalk.crabtalk.service"), '[Service]\nExecStart="/opt/old/crabtalk" "daemon"\n');
    const sm = fakeServiceManager();
    const r = await doctor(sm.env({ XDG_CONFIG_HOME: xdg, CRABTALK_SERVICE_MANAGER: "systemd" }));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`runs /opt/old/crabtalk, not this binary (${process.execPath})`);
    expect(r.stdout).toContain("fix: crabtalk restart (it rewrites the definition)");
  } finally {
    cleanup(xdg);
  }
});

test("no daemon answering is a failure that says to start it", async () => {
  const home = tempHome();
  try {
    const r = await runCli(["doctor"], { home });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("✗ the daemon does not answer");
    expect(r.stdout).toContain("fix: crabtalk start");
  } finally {
    cleanup(home);
  }
});
