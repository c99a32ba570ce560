import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { ConfigError } from "../../src/config/error.ts";
import { loadConfigFile, parseConfigText, requireActiveModel, validateConfig } from "../../src/config/load.ts";
import { PROVIDER_KINDS } from "../../src/base/provider-kinds.ts";
import { CONFIG_TEMPLATE } from "../../src/config/template.ts";
import { tempDir } from "./tmp.ts";

function errorOf(text: string): ConfigError {
  try {
    parseConfigText(text);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected the config to be rejected");
}

describe("template", () => {
  test("parses as a valid config with the template's values", () => {
    const { config, raw } = parseConfigText(CONFIG_TEMPLATE);
    expect(config.provider).toEqual({});
    expect(config.system.crab.model).toBeUndefined();
    expect(config.system.tasks).toEqual({ max_concurrent: 4, viewable_window: 16, task_timeout: 300 });
    expect(config.system.memory.recall_limit).toBe(5);
    expect(Object.keys(raw).sort()).toEqual(["system"]);
  });

  test("has commented examples the spec asks for", () => {
    for (const needle of [
      "# [provider.openai]",
      "# [provider.anthropic]",
      '# kind = "anthropic"',
      "# [provider.ollama]",
      "# base_url = ",
      "# [mcps.",
      "# url = ",
      "# [agents.",
      "# model = ",
    ]) {
      expect(CONFIG_TEMPLATE).toContain(needle);
    }
  });
});

describe("defaults", () => {
  test("an empty document parses with no providers, MCPs, agents or env", () => {
    const { config } = parseConfigText("");
    expect(config.provider).toEqual({});
    expect(config.mcps).toEqual({});
    expect(config.agents).toEqual({});
    expect(config.env).toEqual({});
    expect(config.disabled).toEqual({ providers: [], mcps: [], skills: [] });
  });

  test("system defaults (docs/config.md)", () => {
    const { config } = parseConfigText("");
    expect(config.system.crab).toEqual({
      description: "",
      max_iterations: 16,
      thinking: false,
      members: [],
      skills: [],
      mcps: [],
      compact_threshold: undefined, // 80 % of the model's context window
      fallback: [],
      compact_tool_max_len: 1024,
      run_timeout: 1800,
      approve: [],
    });
    expect(config.system.tasks).toEqual({ max_concurrent: 4, viewable_window: 16, task_timeout: 300 });
    expect(config.system.memory).toEqual({ recall_limit: 5 });
  });

  test("written values override defaults", () => {
    const { config } = parseConfigText(
      "[system.tasks]\nmax_concurrent = 8\ntask_timeout = 600\n[system.memory]\nrecall_limit = 10\n[system.crab]\nmodel = 'm'\ncompact_threshold = 0\n",
    );
    expect(config.system.tasks.max_concurrent).toBe(8);
    expect(config.system.tasks.task_timeout).toBe(600);
    expect(config.system.tasks.viewable_window).toBe(16);
    expect(config.system.memory.recall_limit).toBe(10);
    expect(config.system.crab.model).toBe("m");
    // 0 is kept: it means "auto-compaction disabled".
    expect(config.system.crab.compact_threshold).toBe(0);
  });

  test("provider defaults: kind openai, max_retries 2, timeout 30, stream_idle_timeout 120, max_answer_bytes 4 MiB", () => {
    const { config } = parseConfigText('[provider.openai]\napi_key = "sk-1"\nmodels = ["gpt-4o"]\n');
    expect(config.provider.openai).toEqual({
      kind: "openai",
      api_key: "sk-1",
      models: ["gpt-4o"],
      max_retries: 2,
      timeout: 30,
      stream_idle_timeout: 120,
      max_answer_bytes: 4 * 1024 * 1024,
    });
  });

  test("`standard` is accepted as the kind key; `kind` wins when both are set", () => {
    const { config } = parseConfigText(
      '[provider.a]\nstandard = "ollama"\nmodels = ["l"]\n[provider.b]\nstandard = "ollama"\nkind = "anthropic"\napi_key = "k"\nmodels = ["c"]\n',
    );
    expect(config.provider.a?.kind).toBe("ollama");
    expect(config.provider.b?.kind).toBe("anthropic");
    expect(config.provider.a).not.toHaveProperty("standard");
  });

  test("[env] pairs and [disabled] lists are read as given", () => {
    const { config } = parseConfigText('[env]\nA = "1"\nB = "${X}"\n[disabled]\nskills = ["s"]\n');
    expect(config.env).toEqual({ A: "1", B: "${X}" });
    expect(config.disabled).toEqual({ providers: [], mcps: [], skills: ["s"] });
  });

  test("deprecated [mcps.*] and [agents.*] in config.toml are still read", () => {
    const { config } = parseConfigText(
      '[mcps.fs]\ncommand = "npx"\n[mcps.web]\nurl = "http://x/mcp"\nname = "webby"\n[agents.helper]\ndescription = "helps"\n',
    );
    expect(config.mcps.fs).toEqual({ name: "fs", command: "npx", args: [], env: {}, auto_restart: true, auth: false });
    expect(config.mcps.web?.name).toBe("webby");
    expect(config.mcps.web?.url).toBe("http://x/mcp");
    expect(config.agents.helper?.description).toBe("helps");
    expect(config.agents.helper?.model).toBeUndefined();
    expect(config.agents.helper?.max_iterations).toBe(16);
  });

  test("unknown keys and tables are ignored", () => {
    const { config, raw } = parseConfigText('[provider.a]\napi_key = "k"\nmodels = ["m"]\nflavour = "spicy"\n[system.crab]\nmood = 3\n[whatever]\nx = 1\n');
    expect(config.provider.a).not.toHaveProperty("flavour");
    expect(config.system.crab).not.toHaveProperty("mood");
    expect(config).not.toHaveProperty("whatever");
    // The raw document keeps everything that was written.
    expect(raw.whatever).toEqual({ x: 1 });
  });

  test("raw is the unexpanded document as plain objects", () => {
    const { raw } = parseConfigText('[provider.a]\napi_key = "${KEY}"\nmodels = ["m"]\n');
    expect(raw).toEqual({ provider: { a: { api_key: "${KEY}", models: ["m"] } } });
    expect(Object.getPrototypeOf(raw)).toBe(Object.prototype);
  });

  test("every provider kind is accepted with its required keys", () => {
    const needs: Record<string, string> = {
      bedrock: 'region = "r"\naccess_key = "a"\nsecret_key = "s"',
      ollama: "",
      llama_cpp: 'model_path = "/m.gguf"',
    };
    for (const kind of PROVIDER_KINDS) {
      const extra = needs[kind] ?? 'api_key = "k"';
      const { config } = parseConfigText(`[provider.p]\nkind = "${kind}"\nmodels = ["m"]\n${extra}\n`);
      expect(config.provider.p?.kind).toBe(kind);
    }
  });
});

describe("validation", () => {
  test("a provider without models", () => {
    expect(errorOf('[provider.openai]\napi_key = "k"\n').message).toBe("config.toml: provider.openai.models: must list at least one model");
  });

  test("max_answer_bytes is between 1 and 12 MiB, so a Send reply always fits a frame; stream_idle_timeout not negative", () => {
    const p = (extra: string) => `[provider.openai]\napi_key = "k"\nmodels = ["m"]\n${extra}\n`;
    expect(errorOf(p("max_answer_bytes = 0")).message).toBe("config.toml: provider.openai.max_answer_bytes: must be at least 1");
    expect(errorOf(p(`max_answer_bytes = ${12 * 1024 * 1024 + 1}`)).message).toBe(
      "config.toml: provider.openai.max_answer_bytes: must be at most 12582912 (12 MiB)",
    );
    expect(errorOf(p("stream_idle_timeout = -1")).message).toBe("config.toml: provider.openai.stream_idle_timeout: must not be negative");
    expect(parseConfigText(p("max_answer_bytes = 1000\nstream_idle_timeout = 0")).config.provider.openai).toMatchObject({
      max_answer_bytes: 1000,
      stream_idle_timeout: 0,
    });
  });

  test("a provider with an empty models list", () => {
    expect(errorOf('[provider.openai]\napi_key = "k"\nmodels = []\n').message).toBe("config.toml: provider.openai.models: must list at least one model");
  });

  test("bedrock needs a region; static keys come as a pair, else the AWS credential chain applies", () => {
    expect(errorOf('[provider.aws]\nkind = "bedrock"\nmodels = ["m"]\n').message).toContain("provider.aws.region: required for kind 'bedrock'");
    const half = errorOf('[provider.aws]\nkind = "bedrock"\nmodels = ["m"]\nregion = "us-east-1"\naccess_key = "AKID"\n').message;
    expect(half).toContain("provider.aws.secret_key: required for kind 'bedrock'");
    expect(half).not.toContain("region");
    const chain = parseConfigText('[provider.aws]\nkind = "bedrock"\nmodels = ["m"]\nregion = "eu-west-1"\n');
    expect(chain.config.provider.aws?.access_key).toBeUndefined();
  });

  test("llama_cpp without model_path", () => {
    expect(errorOf('[provider.local]\nkind = "llama_cpp"\nmodels = ["m"]\n').message).toBe(
      "config.toml: provider.local.model_path: required for kind 'llama_cpp'",
    );
  });

  test("other kinds need api_key or base_url", () => {
    for (const kind of ["openai", "anthropic", "google", "azure"]) {
      expect(errorOf(`[provider.x]\nkind = "${kind}"\nmodels = ["m"]\n`).message).toBe(`config.toml: provider.x: kind '${kind}' needs api_key or base_url`);
    }
    // base_url alone is enough (e.g. a local OpenAI-compatible server).
    expect(parseConfigText('[provider.x]\nbase_url = "http://h"\nmodels = ["m"]\n').config.provider.x?.base_url).toBe("http://h");
  });

  test("ollama needs nothing but models", () => {
    expect(parseConfigText('[provider.o]\nkind = "ollama"\nmodels = ["llama3"]\n').config.provider.o?.models).toEqual(["llama3"]);
  });

  test("a model listed by two providers", () => {
    const msg = errorOf('[provider.a]\napi_key = "k"\nmodels = ["gpt-4o"]\n[provider.b]\napi_key = "k"\nmodels = ["x", "gpt-4o"]\n').message;
    expect(msg).toBe("config.toml: provider.b.models: duplicate model name 'gpt-4o' across providers");
  });

  test("an unknown kind names the accepted ones", () => {
    const msg = errorOf('[provider.p]\nkind = "openia"\napi_key = "k"\nmodels = ["m"]\n').message;
    expect(msg).toStartWith("config.toml: provider.p.kind: must be one of openai, anthropic,");
  });

  test("wrong value types name the key", () => {
    expect(errorOf('[system.tasks]\nmax_concurrent = "four"\n').message).toBe("config.toml: system.tasks.max_concurrent: must be an integer");
    expect(errorOf("[system.crab]\nthinking = 1\n").message).toBe("config.toml: system.crab.thinking: must be true or false");
    expect(errorOf("[provider.p]\nmodels = [1]\napi_key = 'k'\n").message).toBe("config.toml: provider.p.models[0]: must be a string");
    expect(errorOf('[provider."my.llm"]\napi_key = "k"\nmodels = "m"\n').message).toBe('config.toml: provider."my.llm".models: must be an array of strings');
    expect(errorOf("provider = 3\n").message).toBe("config.toml: provider: must be a table");
  });

  test("a TOML syntax error names the line and column", () => {
    const err = errorOf("[system.tasks]\nmax_concurrent = 4\nviewable_window = [\n");
    expect(err.message).toMatch(/^config\.toml: syntax error at line \d+, column \d+: /);
    const dup = errorOf("[env]\nA = '1'\nA = '2'\n");
    expect(dup.message).toStartWith("config.toml: syntax error at line 3, column 1:");
    expect(dup.code).toBe(400);
  });

  test("system.crab.model is optional at load but required on demand", () => {
    const { config } = parseConfigText("");
    expect(() => requireActiveModel(config)).toThrow("system.crab.model is required in config.toml");
    expect(() => validateConfig({}, { requireModel: true })).toThrow("system.crab.model is required in config.toml");
    expect(requireActiveModel(validateConfig({ system: { crab: { model: "m" } } }))).toBe("m");
  });

  test("validateConfig accepts SetConfig JSON, including compact_threshold null", () => {
    const config = validateConfig({ system: { crab: { model: "m", compact_threshold: null } } });
    expect(config.system.crab.compact_threshold).toBe(0);
  });
});

describe("loadConfigFile", () => {
  test("reads and validates a file, naming it in errors", () => {
    const dir = tempDir();
    const file = path.join(dir, "config.toml");
    fs.writeFileSync(file, '[system.crab]\nmodel = "gpt-4o"\n');
    expect(loadConfigFile(file).config.system.crab.model).toBe("gpt-4o");
    fs.writeFileSync(file, "[provider.p]\nkind = 'ollama'\n");
    expect(() => loadConfigFile(file)).toThrow("config.toml: provider.p.models: must list at least one model");
  });

  test("a missing file is a 500-type ConfigError naming the path", () => {
    const file = path.join(tempDir(), "config.toml");
    try {
      loadConfigFile(file);
      throw new Error("expected failure");
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).code).toBe(500);
      expect((err as ConfigError).message).toContain(file);
    }
  });

  test("llama_cpp model_path must exist, after ${VAR} expansion", () => {
    const dir = tempDir();
    const model = path.join(dir, "model.gguf");
    const file = path.join(dir, "config.toml");
    fs.writeFileSync(file, '[provider.local]\nkind = "llama_cpp"\nmodel_path = "${MODELS}/model.gguf"\nmodels = ["m"]\n');
    expect(() => loadConfigFile(file, { MODELS: dir })).toThrow(`config.toml: provider.local.model_path: no file at '${model}'`);
    fs.writeFileSync(model, "");
    expect(loadConfigFile(file, { MODELS: dir }).config.provider.local?.model_path).toBe("${MODELS}/model.gguf");
  });
});
