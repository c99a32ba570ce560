import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { ConfigError } from "../../src/config/error.ts";
import { parseConfigText, validateConfig } from "../../src/config/load.ts";
import { REDACTED, redactConfigJson, redactMcp, redactProvider, redactSecrets, restoreMcpSecrets, restoreRedacted } from "../../src/config/redact.ts";

const TEXT = `
[provider.openai]
api_key = "sk-live-123"
models = ["gpt-4o"]

[provider.aws]
kind = "bedrock"
region = "us-east-1"
access_key = "AKIAEXAMPLE"
secret_key = "wJalrXUtnFEMI"
models = ["claude"]

[provider.ref]
api_key = "\${ANTHROPIC_API_KEY}"
kind = "anthropic"
models = ["claude-x"]

[mcps.gh]
command = "gh-mcp"
env = { GITHUB_TOKEN = "ghp_secret", PLAIN = "\${HOME}" }

[env]
SLACK_TOKEN = "xoxb-1"
REF = "\${SLACK}"

[system.crab]
model = "gpt-4o"
`;

describe("redactConfigJson", () => {
  const { raw } = parseConfigText(TEXT);
  const json = redactConfigJson(raw);

  test("redacts provider api_key, access_key and secret_key", () => {
    expect(json.provider.openai?.api_key).toBe(REDACTED);
    expect(json.provider.aws?.access_key).toBe(REDACTED);
    expect(json.provider.aws?.secret_key).toBe(REDACTED);
    // Non-secret fields stay readable.
    expect(json.provider.aws?.region).toBe("us-east-1");
    expect(json.provider.openai?.models).toEqual(["gpt-4o"]);
  });

  test("redacts every [env] value and every MCP env value", () => {
    expect(json.env.SLACK_TOKEN).toBe(REDACTED);
    expect((json.mcps.gh?.env as Record<string, unknown> | undefined)?.GITHUB_TOKEN).toBe(REDACTED);
    expect(json.mcps.gh?.command).toBe("gh-mcp");
  });

  test("a value that is exactly one ${NAME} reference is shown as is", () => {
    expect(json.provider.ref?.api_key).toBe("${ANTHROPIC_API_KEY}");
    expect(json.env.REF).toBe("${SLACK}");
    expect((json.mcps.gh?.env as Record<string, unknown> | undefined)?.PLAIN).toBe("${HOME}");
    expect(redactProvider({ api_key: "pre-${X}" }).api_key).toBe(REDACTED);
  });

  test("no secret survives anywhere in the serialised JSON", () => {
    const text = JSON.stringify(json);
    for (const secret of ["sk-live-123", "AKIAEXAMPLE", "wJalrXUtnFEMI", "ghp_secret", "xoxb-1"]) {
      expect(text).not.toContain(secret);
    }
  });

  test("the raw document is not modified", () => {
    expect((raw.provider as Record<string, Record<string, unknown>>).openai?.api_key).toBe("sk-live-123");
  });

  test("every section is present with defaults", () => {
    const empty = redactConfigJson({});
    expect(empty).toEqual({
      provider: {},
      mcps: {},
      system: {
        crab: {
          description: "",
          max_iterations: 16,
          thinking: false,
          members: [],
          skills: [],
          mcps: [],
          fallback: [],
          compact_tool_max_len: 1024,
          run_timeout: 1800,
          approve: [],
        },
        tasks: { max_concurrent: 4, viewable_window: 16, task_timeout: 300 },
        memory: { recall_limit: 5 },
      },
      agents: {},
      env: {},
      disabled: { providers: [], mcps: [], skills: [] },
    });
    // Written values win over the defaults.
    expect(json.system.crab.model).toBe("gpt-4o");
    expect(redactConfigJson({ system: { tasks: { max_concurrent: 9 } } }).system.tasks).toEqual({
      max_concurrent: 9,
      viewable_window: 16,
      task_timeout: 300,
    });
  });
});

describe("redactSecrets (logs)", () => {
  test("redacts provider keys and env tables at any depth", () => {
    const line = {
      msg: "reload",
      providers: [{ name: "a", api_key: "sk-1", secret_key: "s", access_key: "a", base_url: "u" }],
      server: { env: { TOKEN: "t" }, args: ["x"] },
    };
    const out = redactSecrets(line);
    expect(out.providers[0]).toEqual({ name: "a", api_key: REDACTED, secret_key: REDACTED, access_key: REDACTED, base_url: "u" });
    expect(out.server).toEqual({ env: { TOKEN: REDACTED }, args: ["x"] });
    expect(line.providers[0]?.api_key).toBe("sk-1");
    expect(redactMcp({ env: { A: "b" } })).toEqual({ env: { A: REDACTED } });
  });
});

describe("restoreRedacted", () => {
  const { raw } = parseConfigText(TEXT);

  test("<redacted> secrets take the stored values of the same key", () => {
    const incoming = redactConfigJson(raw) as unknown as Record<string, unknown>;
    const restored = restoreRedacted(incoming, raw);
    const providers = restored.provider as Record<string, Record<string, unknown>>;
    expect(providers.openai?.api_key).toBe("sk-live-123");
    expect(providers.aws?.access_key).toBe("AKIAEXAMPLE");
    expect(providers.aws?.secret_key).toBe("wJalrXUtnFEMI");
    expect(providers.ref?.api_key).toBe("${ANTHROPIC_API_KEY}");
    expect(restored.env).toEqual({ SLACK_TOKEN: "xoxb-1", REF: "${SLACK}" });
    const mcps = restored.mcps as Record<string, Record<string, unknown>>;
    expect(mcps.gh?.env).toEqual({ GITHUB_TOKEN: "ghp_secret", PLAIN: "${HOME}" });
    // The result validates as a config again, and the input was not modified.
    expect(validateConfig(restored, { requireModel: true }).provider.openai?.api_key).toBe("sk-live-123");
    expect((incoming.provider as Record<string, Record<string, unknown>>).openai?.api_key).toBe(REDACTED);
  });

  test("a new value replaces the stored one", () => {
    const restored = restoreRedacted({ provider: { openai: { api_key: "sk-new", models: ["gpt-4o"] } } }, raw);
    expect((restored.provider as Record<string, Record<string, unknown>>).openai?.api_key).toBe("sk-new");
  });

  test("<redacted> with nothing stored is a 400 ConfigError naming the field", () => {
    const attempt = (incoming: Record<string, unknown>): ConfigError => {
      try {
        restoreRedacted(incoming, raw);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        expect((err as ConfigError).code).toBe(400);
        return err as ConfigError;
      }
      throw new Error("expected a ConfigError");
    };
    expect(attempt({ provider: { x: { api_key: REDACTED, models: ["m"] } } }).message).toBe("provider 'x': api_key is <redacted> but no value is stored");
    // Same key of a different provider does not count.
    expect(attempt({ provider: { ref2: { secret_key: REDACTED } } }).message).toBe("provider 'ref2': secret_key is <redacted> but no value is stored");
    expect(attempt({ env: { NEW: REDACTED } }).message).toBe("env 'NEW': value is <redacted> but no value is stored");
    expect(attempt({ mcps: { gh: { env: { OTHER: REDACTED } } } }).message).toBe("mcp 'gh': env.OTHER is <redacted> but no value is stored");
  });

  test('a "__proto__" key from client JSON stays a plain key', () => {
    const incoming = JSON.parse('{"env": {"__proto__": "x", "A": "<redacted>"}}') as Record<string, unknown>;
    const restored = restoreRedacted(incoming, { env: { A: "a" } });
    const env = restored.env as Record<string, unknown>;
    expect(Object.getPrototypeOf(env)).toBe(Object.prototype);
    expect(Object.hasOwn(env, "__proto__")).toBe(true);
    expect(env.A).toBe("a");
    // "__proto__" with nothing stored under it is not found on Object.prototype either.
    expect(() => restoreRedacted(JSON.parse('{"env": {"__proto__": "<redacted>"}}'), {})).toThrow(
      "env '__proto__': value is <redacted> but no value is stored",
    );
  });

  test("restoreMcpSecrets handles one server (SetLocalMcps)", () => {
    expect(restoreMcpSecrets("s", { env: { T: REDACTED, U: "new" } }, { env: { T: "old" } })).toEqual({
      env: { T: "old", U: "new" },
    });
  });

  test("property: redact then restore gives back every provider secret", () => {
    const secret = fc.oneof(
      fc.string({ minLength: 1 }).filter((s) => s !== REDACTED),
      fc.constantFrom("${KEY}", "sk-${KEY}"),
    );
    const provider = fc.record(
      {
        api_key: secret,
        access_key: secret,
        secret_key: secret,
        base_url: fc.webUrl(),
        models: fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 3 }),
      },
      { requiredKeys: ["models"] },
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), provider, { maxKeys: 4 }),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), secret, { maxKeys: 4 }),
        (providers, env) => {
          const stored = { provider: providers, env };
          const shown = redactConfigJson(stored) as unknown as Record<string, unknown>;
          expect(restoreRedacted(shown, stored)).toMatchObject({ provider: providers, env });
        },
      ),
    );
  });
});

test("a [hub] url's credentials are redacted, and a redacted url sent back keeps the stored one", () => {
  const raw = { hub: { url: "https://me:ghp_secret@github.com/me/hub" } };
  const shown = redactConfigJson(raw);
  expect(JSON.stringify(shown)).not.toContain("ghp_secret");
  expect(shown.hub).toEqual({ url: "https://<redacted>@github.com/me/hub" });
  expect(restoreRedacted({ hub: shown.hub }, raw)).toEqual({ hub: { url: "https://me:ghp_secret@github.com/me/hub" } });
  expect(() => restoreRedacted({ hub: { url: "https://<redacted>@elsewhere/hub" } }, raw)).toThrow("hub url");
  expect(redactConfigJson({ hub: { url: "/srv/hub" } }).hub).toEqual({ url: "/srv/hub" });
});
