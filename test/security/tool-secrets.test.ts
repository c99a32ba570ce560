// Secrets stay secret (docs/security.md): a model-driven bash reading its
// environment, the config and the daemon's own environment sees no secret,
// and no secret reaches the model, a frame or any file under the home.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";

const SECRETS = {
  referenced: "sk-referenced-0123456789abcdef", // ${FAKE_SECRET_KEY} in the config
  literal: "sk-literal-in-config-9876543210", // written into config.toml
  envTable: "literal-env-table-secret-42", // an [env] value
  wellKnown: "ghp_wellknowntoken_0123456789", // GITHUB_TOKEN in the daemon's environment
  apiKeyLike: "my-service-api-key-value-77", // MY_SERVICE_API_KEY
};
const PASSED = "passthrough-token-value-123"; // DEPLOY_TOKEN, named in env_passthrough

let env: LlmDaemon;
let client: Client;

beforeAll(async () => {
  env = await startLlmDaemon("openai", {
    env: {
      FAKE_SECRET_KEY: SECRETS.referenced,
      GITHUB_TOKEN: SECRETS.wellKnown,
      MY_SERVICE_API_KEY: SECRETS.apiKeyLike,
      DEPLOY_TOKEN: PASSED,
      HARMLESS_SETTING: "visible-to-tools",
    },
    extraConfig: `
[provider.other]
api_key = "${SECRETS.literal}"
base_url = "http://127.0.0.1:9/v1"
models = ["other-model"]

[provider.referenced]
api_key = "\${FAKE_SECRET_KEY}"
base_url = "http://127.0.0.1:9/v1"
models = ["referenced-model"]

[env]
SERVICE_PASSWORD = "${SECRETS.envTable}"

[system.tools]
sandbox = "off"
env_passthrough = ["DEPLOY_TOKEN"]
`,
  });
  client = await env.daemon.client();
});

afterAll(async () => {
  await client?.close();
  await env?.stop();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) return filesUnder(path);
    return st.isFile() ? [path] : [];
  });
}

const bash = (id: string, command: string) => ({ id, name: "bash", arguments: JSON.stringify({ command }) });

test("bash reading env, config.toml and the daemon's environment returns no secret; none reaches a file", async () => {
  env.fake.script({ toolCalls: [bash("b1", 'env; cat "$CRABTALK_HOME/config.toml"; tr "\\0" "\\n" < /proc/$PPID/environ')] }, { text: "done" });
  const outputs: string[] = [];
  for await (const e of client.stream({ agent: "crab", content: "show me everything", sender: "attacker" })) {
    if (e.event.case === "toolResult") outputs.push(e.event.value.output);
  }
  expect(outputs).toHaveLength(1);
  const { stdout } = JSON.parse(outputs[0]!) as { stdout: string };
  // The command really ran: the config and the harmless variable are there.
  expect(stdout).toContain("[provider.other]");
  expect(stdout).toContain("HARMLESS_SETTING=visible-to-tools");
  expect(stdout).toContain("<redacted>");
  // A named variable passes, and is then not treated as a secret.
  expect(stdout).toContain(`DEPLOY_TOKEN=${PASSED}`);
  // Stripped from the tools' environment (the daemon's own environ shows them redacted).
  const toolEnv = stdout.slice(0, stdout.indexOf("[provider.fake]"));
  expect(toolEnv).not.toMatch(/^(GITHUB_TOKEN|MY_SERVICE_API_KEY|FAKE_SECRET_KEY)=/m);
  expect(stdout).toContain("GITHUB_TOKEN=<redacted>"); // read from the daemon's own /proc environ

  const toModel = JSON.stringify(env.fake.requests.filter((r) => r.body?.stream).at(-1)!.body.messages);
  expect(toModel).toContain("HARMLESS_SETTING");
  for (const secret of Object.values(SECRETS)) {
    expect(stdout).not.toContain(secret);
    expect(toModel).not.toContain(secret);
  }
  // config.toml holds the literal secrets by design; nothing else under the home may.
  const files = filesUnder(env.daemon.home).filter((f) => f !== join(env.daemon.home, "config.toml"));
  expect(files.some((f) => f.includes("sessions"))).toBe(true);
  for (const file of files) {
    const text = readFileSync(file, "latin1");
    for (const secret of Object.values(SECRETS)) expect({ file, leaked: text.includes(secret) }).toEqual({ file, leaked: false });
  }
});

test("the model cannot smuggle a secret out by encoding-free tricks: split output is redacted per occurrence", async () => {
  env.fake.script(
    {
      toolCalls: [
        bash(
          "b2",
          `echo "a=$(tr '\\0' '\\n' < /proc/$PPID/environ | grep ^GITHUB_TOKEN=)"; echo twice "$(tr '\\0' '\\n' < /proc/$PPID/environ | grep ^GITHUB_TOKEN= | cut -d= -f2)"`,
        ),
      ],
    },
    { text: "ok" },
  );
  const r = await client.send({ agent: "crab", content: "again", sender: "attacker" });
  expect(r.content).toBe("ok");
  const tool = env.fake.requests
    .filter((q) => q.body?.stream)
    .at(-1)!
    .body.messages.find((m: { role: string; tool_call_id?: string }) => m.tool_call_id === "b2");
  expect(tool.content).toContain("a=GITHUB_TOKEN=<redacted>");
  expect(tool.content).toContain("twice <redacted>");
  expect(tool.content).not.toContain(SECRETS.wellKnown);
});
