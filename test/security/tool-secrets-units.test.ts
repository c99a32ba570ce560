// The tools' environment and the secret list computed from a config.
import { expect, test } from "bun:test";
import { isCredentialName, toolSecrets } from "../../src/daemon/tool-secrets.ts";
import { redactOutput } from "../../src/runtime/redact-output.ts";

test("well-known credential names are recognised, ordinary ones are not", () => {
  for (const name of ["OPENAI_API_KEY", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "DB_PASSWORD", "SSH_AUTH_SOCK", "APIKEY"]) {
    expect({ name, credential: isCredentialName(name) }).toEqual({ name, credential: true });
  }
  for (const name of ["PATH", "HOME", "TOKENIZERS_PARALLELISM", "KEYBOARD", "LANG", "EDITOR"]) {
    expect({ name, credential: isCredentialName(name) }).toEqual({ name, credential: false });
  }
});

test("referenced variables leave the environment and their values are secrets; ${HOME} stays", () => {
  const raw = { provider: { a: { api_key: "${KEY_FOR_A}", model_path: "${HOME}/m.gguf", base_url: "https://x/${ROUTE}" } } };
  const env = {
    KEY_FOR_A: "value-of-key-a-123",
    HOME: "/home/someone",
    ROUTE: "route-value-secret",
    PLAIN: "plain-value-visible",
    NPM_TOKEN: "npm-token-value-1",
    CI_TOKEN: "kept-by-passthrough",
  };
  const { env: toolEnv, secrets } = toolSecrets([raw], env, ["CI_TOKEN"]);
  expect(toolEnv).toEqual({ HOME: "/home/someone", PLAIN: "plain-value-visible", CI_TOKEN: "kept-by-passthrough" });
  expect(secrets).toContain("value-of-key-a-123");
  expect(secrets).toContain("route-value-secret");
  expect(secrets).toContain("npm-token-value-1");
  expect(secrets).not.toContain("/home/someone");
});

test("literal secrets, env tables and MCP env values are listed; short values are not", () => {
  const raw = { provider: { b: { api_key: "sk-literal-abcdefgh", secret_key: "short" } }, env: { TOOL_SETTING: "env-table-value-1" } };
  const manifest = { mcps: { gh: { command: "gh-mcp", env: { GH: "mcp-env-value-99" } } } };
  const { secrets } = toolSecrets([raw, manifest], {}, []);
  expect(secrets).toEqual(expect.arrayContaining(["sk-literal-abcdefgh", "env-table-value-1", "mcp-env-value-99"]));
  expect(secrets).not.toContain("short");
});

test("redaction replaces every occurrence, the JSON-escaped form too", () => {
  const { secrets } = toolSecrets([{ provider: { c: { api_key: 'quote"and\\slash-secret' } } }], {}, []);
  const json = JSON.stringify({ stdout: 'x quote"and\\slash-secret y quote"and\\slash-secret' });
  expect(redactOutput(json, secrets)).toBe(JSON.stringify({ stdout: "x <redacted> y <redacted>" }));
});
