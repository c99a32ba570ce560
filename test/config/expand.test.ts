import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { expandConfig, expandMcpServer, expandVars, isSingleReference } from "../../src/config/expand.ts";
import { parseConfigText } from "../../src/config/load.ts";

describe("expandVars", () => {
  const env = { HOME: "/home/u", KEY: "sk-123", EMPTY: "" };

  test("replaces ${NAME} with the variable's value", () => {
    expect(expandVars("${KEY}", env)).toBe("sk-123");
    expect(expandVars("${HOME}/models/${KEY}.bin", env)).toBe("/home/u/models/sk-123.bin");
  });

  test("an unset variable becomes the empty string", () => {
    expect(expandVars("a${NOPE}b", env)).toBe("ab");
    expect(expandVars("${EMPTY}", env)).toBe("");
  });

  test("a $ not followed by { is literal", () => {
    expect(expandVars("$KEY costs $5", env)).toBe("$KEY costs $5");
    expect(expandVars("$$${KEY}$", env)).toBe("$$sk-123$");
    expect(expandVars("${unterminated", env)).toBe("${unterminated");
  });

  test("property: a string without `${` is returned unchanged", () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes("${")),
        fc.dictionary(fc.string({ minLength: 1 }), fc.string()),
        (s, vars) => expandVars(s, vars) === s,
      ),
    );
  });

  test("isSingleReference recognises exactly one reference", () => {
    expect(isSingleReference("${OPENAI_API_KEY}")).toBe(true);
    expect(isSingleReference("${A}${B}")).toBe(false);
    expect(isSingleReference("x${A}")).toBe(false);
    expect(isSingleReference("sk-live")).toBe(false);
  });
});

describe("expandConfig", () => {
  const text = `
[provider.openai]
api_key = "\${OPENAI_API_KEY}"
base_url = "https://\${HOST}/v1"
models = ["\${NOT_EXPANDED}"]

[provider.aws]
kind = "bedrock"
region = "\${REGION}"
access_key = "\${AK}"
secret_key = "\${SK}"
models = ["claude"]

[mcps.fs]
command = "\${BIN}/server"
args = ["--root", "\${ROOT}", "$literal"]
env = { TOKEN = "\${TOKEN}" }

[mcps.web]
url = "http://\${HOST}/mcp"

[env]
GLOBAL = "\${TOKEN}-x"
`;
  const env = {
    OPENAI_API_KEY: "sk-o",
    HOST: "example.com",
    REGION: "eu-west-1",
    AK: "AKIA",
    SK: "shh",
    BIN: "/usr/bin",
    ROOT: "/data",
    TOKEN: "t0k",
    NOT_EXPANDED: "oops",
  };

  test("expands provider, MCP and [env] strings; leaves the input untouched", () => {
    const { config } = parseConfigText(text);
    const out = expandConfig(config, env);
    expect(out.provider.openai?.api_key).toBe("sk-o");
    expect(out.provider.openai?.base_url).toBe("https://example.com/v1");
    expect(out.provider.openai?.models).toEqual(["${NOT_EXPANDED}"]);
    expect(out.provider.aws).toMatchObject({ region: "eu-west-1", access_key: "AKIA", secret_key: "shh" });
    expect(out.mcps.fs?.command).toBe("/usr/bin/server");
    expect(out.mcps.fs?.args).toEqual(["--root", "/data", "$literal"]);
    expect(out.mcps.fs?.env).toEqual({ TOKEN: "t0k" });
    expect(out.mcps.web?.url).toBe("http://example.com/mcp");
    expect(out.env).toEqual({ GLOBAL: "t0k-x" });
    // The parsed config (what GetConfig/edits see) still holds the references.
    expect(config.provider.openai?.api_key).toBe("${OPENAI_API_KEY}");
    expect(config.mcps.fs?.env).toEqual({ TOKEN: "${TOKEN}" });
    expect(config.env.GLOBAL).toBe("${TOKEN}-x");
  });

  test("expandMcpServer works on servers from manifests too", () => {
    const server = { name: "s", command: "${X}", args: [], env: {}, auto_restart: true, auth: false };
    expect(expandMcpServer(server, { X: "run" })).toEqual({ ...server, command: "run" });
    expect(server.command).toBe("${X}");
  });
});
