// crabtalk doctor: exit 0 on a healthy home, a named fix for each problem.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { runCli } from "../support/cli.ts";
import { fakeServiceManager } from "../support/fake-service-manager.ts";

const GOOD = '[provider.openai]\napi_key = "sk-doctor"\nmodels = ["gpt-4o"]\n\n[system.crab]\nmodel = "gpt-4o"\n';
let daemon: TestDaemon;
const doctor = (env?: Record<string, string>) => runCli(["doctor"], { home: daemon.home, env });

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

test("a provider key referencing an unset variable fails, naming the variable", async () => {
  writeFileSync(join(daemon.home, "config.toml"), GOOD.replace('"sk-doctor"', '"${DOCTOR_TEST_KEY}"'));
  try {
    const missing = await doctor({ DOCTOR_TEST_KEY: "" });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain("✗ provider openai: api_key uses ${DOCTOR_TEST_KEY}, which is not set here");
    expect((await doctor({ DOCTOR_TEST_KEY: "sk-set" })).code).toBe(0);
  } finally {
    writeFileSync(join(daemon.home, "config.toml"), GOOD);
  }
});

test("Bedrock without static keys uses the AWS credential chain; half a key pair is refused with the config", async () => {
  writeFileSync(join(daemon.home, "config.toml"), `${GOOD}\n[provider.aws]\nkind = "bedrock"\nregion = "us-east-1"\nmodels = ["nova"]\n`);
  try {
    const r = await doctor();
    expect(r.stdout).toContain("✓ provider aws (bedrock) uses the AWS default credential chain");
    writeFileSync(join(daemon.home, "config.toml"), `${GOOD}\n[provider.aws]\nkind = "bedrock"\nregion = "us-east-1"\naccess_key = "AKID"\nmodels = ["nova"]\n`);
    const half = await doctor();
    expect(half.code).toBe(1);
    expect(half.stdout).toContain("provider.aws.secret_key: required for kind 'bedrock'");
  } finally {
    writeFileSync(join(daemon.home, "config.toml"), GOOD);
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
