// The AWS credential chain (src/model/bedrock/credentials/) over what lives on
// the machine: the environment, the shared config and credentials files
// (static keys, session tokens, source_profile loops) and credential_process
// run as a real child process; the error when nothing yields credentials;
// caching until 5 minutes before expiry (driven by the expirations served),
// one resolution for concurrent callers. Where the SDK's own
// defaultProvider can run on the same files, it must resolve the same keys.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { defaultProvider } from "@aws-sdk/credential-provider-node";
import { defaultCredentialChain } from "../../src/model/bedrock/credentials/chain.ts";
import { parseIni } from "../../src/model/bedrock/credentials/ini.ts";
import { splitCommand } from "../../src/model/bedrock/credentials/process.ts";
import type { Env } from "../../src/model/bedrock/credentials/types.ts";
import { ProviderError } from "../../src/model/errors.ts";
import { until } from "../support/until.ts";
import { failure, type Home, keys, noSecrets, tempHome } from "./bedrock-credentials-fixtures.ts";

const homes: Home[] = [];
afterEach(async () => {
  for (const h of homes.splice(0)) await h.remove();
});
async function home(files: Record<string, string> = {}): Promise<Home> {
  const h = await tempHome(files);
  homes.push(h);
  return h;
}

const chain = (env: Env) => defaultCredentialChain({ region: "us-east-1", env });

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** The SDK's defaultProvider over the same environment (it reads process.env only). */
async function sdkResolve(env: Env) {
  const saved = { ...process.env };
  for (const k of Object.keys(process.env)) if (k.startsWith("AWS_")) delete process.env[k];
  for (const [k, v] of Object.entries(env)) if (v !== undefined) process.env[k] = v;
  try {
    const c = await defaultProvider({ logger: quiet })();
    return { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, sessionToken: c.sessionToken, expiration: c.expiration };
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

test("the shared files are parsed as the SDK parses them: comments, sub-sections, prefixes", () => {
  const sections = parseIni(
    [
      "# a comment",
      "[default]",
      "aws_access_key_id = AKIADEFAULT ; trailing comment",
      "aws_secret_access_key=se#cret",
      "s3 =",
      "  max_concurrent_requests = 10",
      "region = eu-west-1",
      "[profile dev]",
      "role_arn = arn:aws:iam::1:role/x",
      "[sso-session corp]",
      "sso_region = us-east-2",
      "[unknown thing]",
      "ignored = yes",
    ].join("\n"),
  );
  expect(sections.get("default")).toEqual(
    Object.assign(Object.create(null), {
      aws_access_key_id: "AKIADEFAULT",
      aws_secret_access_key: "se#cret",
      "s3.max_concurrent_requests": "10",
      region: "eu-west-1",
    }),
  );
  expect(sections.get("profile.dev")?.role_arn).toBe("arn:aws:iam::1:role/x");
  expect(sections.get("sso-session.corp")?.sso_region).toBe("us-east-2");
  expect([...sections.keys()]).toEqual(["default", "profile.dev", "sso-session.corp"]);
});

test("credential_process lines are split into words as a shell would, without running one", () => {
  expect(splitCommand(`"/opt/my tools/helper" --profile 'a b' c\\ d "x\\"y" $HOME;rm`)).toEqual([
    "/opt/my tools/helper",
    "--profile",
    "a b",
    "c d",
    'x"y',
    "$HOME;rm",
  ]);
  expect(() => splitCommand(`helper "unclosed`)).toThrow("unclosed");
});

test("environment keys, with session token and expiration, resolve as the SDK resolves them", async () => {
  const h = await home();
  const k = keys();
  const env = h.env({
    AWS_ACCESS_KEY_ID: k.accessKeyId,
    AWS_SECRET_ACCESS_KEY: k.secretAccessKey,
    AWS_SESSION_TOKEN: k.sessionToken,
    AWS_CREDENTIAL_EXPIRATION: k.expiration.toISOString(),
  });
  const ours = await chain(env)();
  expect(ours).toEqual({ accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey, sessionToken: k.sessionToken, expiration: k.expiration });
  expect(ours).toEqual(await sdkResolve(env));
});

test("the environment beats the default profile; AWS_PROFILE makes the profile win over the environment", async () => {
  const h = await home({
    ".aws/credentials":
      "[default]\naws_access_key_id = AKIAFILE\naws_secret_access_key = SECRET-file\n[work]\naws_access_key_id = AKIAWORK\naws_secret_access_key = SECRET-work\naws_session_token = TOKEN-work\n",
  });
  const envKeys = { AWS_ACCESS_KEY_ID: "AKIAENV", AWS_SECRET_ACCESS_KEY: "SECRET-env" };
  expect((await chain(h.env(envKeys))()).accessKeyId).toBe("AKIAENV");
  expect((await sdkResolve(h.env(envKeys))).accessKeyId).toBe("AKIAENV");
  const withProfile = h.env({ ...envKeys, AWS_PROFILE: "work" });
  expect(await chain(withProfile)()).toEqual({ accessKeyId: "AKIAWORK", secretAccessKey: "SECRET-work", sessionToken: "TOKEN-work" });
  const sdk = await sdkResolve(withProfile);
  expect(sdk.accessKeyId).toBe("AKIAWORK");
  expect(sdk.sessionToken).toBe("TOKEN-work");
});

test("config and credentials files merge key by key, the credentials file winning; AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE move them", async () => {
  const h = await home({
    "elsewhere/config": "[default]\naws_access_key_id = AKIACONFIG\n[profile dev]\naws_access_key_id = AKIADEV\naws_secret_access_key = SECRET-dev-config\n",
    "elsewhere/creds": "[default]\naws_secret_access_key = SECRET-from-creds\n[dev]\naws_secret_access_key = SECRET-dev-creds\n",
  });
  const env = h.env({ AWS_CONFIG_FILE: "~/elsewhere/config", AWS_SHARED_CREDENTIALS_FILE: `${h.dir}/elsewhere/creds` });
  expect(await chain(env)()).toEqual({ accessKeyId: "AKIACONFIG", secretAccessKey: "SECRET-from-creds" });
  expect((await sdkResolve(env)).secretAccessKey).toBe("SECRET-from-creds");
  const dev = { ...env, AWS_PROFILE: "dev" };
  expect(await chain(dev)()).toEqual({ accessKeyId: "AKIADEV", secretAccessKey: "SECRET-dev-creds" });
  expect((await sdkResolve(dev)).secretAccessKey).toBe("SECRET-dev-creds");
});

test("nothing configured: one error that lists every source tried and why each gave nothing", async () => {
  const h = await home();
  const err = await failure(chain(h.env({ AWS_ACCESS_KEY_ID: "AKIAONLYHALF" }))());
  expect(err).toBeInstanceOf(ProviderError);
  expect((err as ProviderError).kind).toBe("other");
  expect((err as ProviderError).transient).toBe(false);
  expect(err.message).toBe(
    "AWS credentials: none found. Tried environment: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not both set; " +
      "profile 'default' (not in ~/.aws/config or ~/.aws/credentials); " +
      "web identity: AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN are not both set; " +
      "instance metadata: disabled by AWS_EC2_METADATA_DISABLED",
  );
  const sdk = await failure(sdkResolve(h.env({ AWS_ACCESS_KEY_ID: "AKIAONLYHALF" })));
  expect(sdk.message).toBe("Could not load credentials from any providers");
});

test("a profile with no credentials in it is passed over, and named in the final error", async () => {
  const h = await home({ ".aws/config": "[profile dev]\nregion = eu-west-1\n" });
  const err = await failure(chain(h.env({ AWS_PROFILE: "dev" }))());
  expect(err.message).toContain("environment: passed over because AWS_PROFILE is set; profile 'dev' in ~/.aws/config: no credentials in it;");
});

test("a source_profile loop is an error naming the loop, with no secret in it", async () => {
  const h = await home({
    ".aws/config":
      "[profile dev]\nrole_arn = arn:aws:iam::1:role/dev\nsource_profile = a\n[profile a]\nrole_arn = arn:aws:iam::1:role/a\nsource_profile = dev\n",
  });
  const err = await failure(chain(h.env({ AWS_PROFILE: "dev" }))());
  expect(err.message).toBe("AWS credentials: profile 'dev' in ~/.aws/config: source_profile 'a' loops back: 'dev' → 'a' → 'dev'");
});

test("a source_profile that does not exist is an error", async () => {
  const h = await home({ ".aws/config": "[profile dev]\nrole_arn = arn:aws:iam::1:role/dev\nsource_profile = missing\n" });
  const err = await failure(chain(h.env({ AWS_PROFILE: "dev" }))());
  expect(err.message).toBe("AWS credentials: profile 'missing' (not in ~/.aws/config or ~/.aws/credentials): is named as a source_profile but does not exist");
});

test("an unsupported credential_source and an MFA role are errors", async () => {
  const h = await home({
    ".aws/config":
      "[profile odd]\nrole_arn = arn:aws:iam::1:role/x\ncredential_source = Somewhere\n[profile mfa]\nrole_arn = arn:aws:iam::1:role/x\nsource_profile = base\nmfa_serial = arn:aws:iam::1:mfa/me\n[profile base]\naws_access_key_id = AKIABASE\naws_secret_access_key = SECRET-base\n",
  });
  expect((await failure(chain(h.env({ AWS_PROFILE: "odd" }))())).message).toContain(
    "credential_source 'Somewhere' is not one of Environment, Ec2InstanceMetadata, EcsContainer",
  );
  const mfa = await failure(chain(h.env({ AWS_PROFILE: "mfa" }))());
  expect(mfa.message).toContain("needs an MFA code");
  noSecrets(mfa.message, "SECRET-base");
});

test("the shared files are read bounded: an oversized file is an error, not a hang", async () => {
  const h = await home({ ".aws/config": `[default]\n${"# padding\n".repeat(120_000)}` });
  expect((await failure(chain(h.env())())).message).toBe("AWS credentials: ~/.aws/config: larger than 1024 KiB");
});

// credential_process, run as a real child process.

/** A helper script run by this very runtime; it prints what `answer.json` holds and counts its runs. */
async function helper(h: Home, body: string): Promise<string> {
  const script = await h.write(
    "bin/my helper.js",
    `const fs = require("node:fs");
const dir = ${JSON.stringify(h.dir)};
fs.appendFileSync(dir + "/runs", "x");
${body}`,
  );
  return `"${process.execPath}" "${script}"`;
}

const printAnswer = `process.stdout.write(fs.readFileSync(dir + "/answer.json", "utf8"));`;

async function answer(h: Home, data: unknown) {
  await h.write("answer.json", typeof data === "string" ? data : JSON.stringify(data));
}
const runs = (h: Home) => (existsSync(`${h.dir}/runs`) ? readFileSync(`${h.dir}/runs`, "utf8").length : 0);

test("credential_process: its JSON gives the credentials, as the SDK's fromProcess reads them", async () => {
  const h = await home();
  const command = await helper(h, printAnswer);
  await h.write(".aws/config", `[profile tool]\ncredential_process = ${command}\n`);
  const k = keys();
  await answer(h, {
    Version: 1,
    AccessKeyId: k.accessKeyId,
    SecretAccessKey: k.secretAccessKey,
    SessionToken: k.sessionToken,
    Expiration: k.expiration.toISOString(),
  });
  const env = h.env({ AWS_PROFILE: "tool" });
  const ours = await chain(env)();
  expect(ours).toEqual({ accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey, sessionToken: k.sessionToken, expiration: k.expiration });
  expect(ours).toEqual(await sdkResolve(env));
});

test("credential_process refusals: not JSON, wrong version, wrong types, expired, failing, too talkative; never a secret in the message", async () => {
  const h = await home();
  const k = keys();
  const cases: [unknown, string][] = [
    ["{not json", "credential_process printed something that is not JSON"],
    [{ Version: 2, AccessKeyId: k.accessKeyId, SecretAccessKey: k.secretAccessKey }, "credential_process did not print Version 1"],
    [{ Version: 1, AccessKeyId: 42, SecretAccessKey: k.secretAccessKey }, "credential_process printed no AccessKeyId and SecretAccessKey strings"],
    [
      { Version: 1, AccessKeyId: k.accessKeyId, SecretAccessKey: k.secretAccessKey, SessionToken: 7 },
      "credential_process printed a SessionToken that is not a string",
    ],
    [
      { Version: 1, AccessKeyId: k.accessKeyId, SecretAccessKey: k.secretAccessKey, Expiration: "soon" },
      "credential_process printed an Expiration that is not a date",
    ],
    [
      { Version: 1, AccessKeyId: k.accessKeyId, SecretAccessKey: k.secretAccessKey, Expiration: "2001-01-01T00:00:00Z" },
      "credential_process printed expired credentials",
    ],
  ];
  const command = await helper(h, printAnswer);
  await h.write(".aws/config", `[default]\ncredential_process = ${command}\n`);
  for (const [data, expected] of cases) {
    await answer(h, data);
    const err = await failure(chain(h.env())());
    expect(err.message).toBe(`AWS credentials: profile 'default' in ~/.aws/config: ${expected}`);
    noSecrets(err.message, k.secretAccessKey);
  }
  const failing = await helper(h, `process.stderr.write(${JSON.stringify(k.secretAccessKey)}); process.exit(3);`);
  await h.write(".aws/config", `[default]\ncredential_process = ${failing}\n`);
  const failed = await failure(chain(h.env())());
  expect(failed.message).toBe(`AWS credentials: profile 'default' in ~/.aws/config: credential_process '${process.execPath}' exited with code 3`);
  const talkative = await helper(h, `process.stdout.write("x".repeat(200000));`);
  await h.write(".aws/config", `[default]\ncredential_process = ${talkative}\n`);
  expect((await failure(chain(h.env())())).message).toContain("credential_process printed more than 64 KiB");
  await h.write(".aws/config", `[default]\ncredential_process = /nonexistent/helper --flag\n`);
  expect((await failure(chain(h.env())())).message).toContain("credential_process '/nonexistent/helper' cannot be run (ENOENT)");
});

test("credential_process dies with the caller's abort", async () => {
  const h = await home();
  const command = await helper(h, `fs.writeFileSync(dir + "/pid", String(process.pid)); setInterval(() => {}, 1000);`);
  await h.write(".aws/config", `[default]\ncredential_process = ${command}\n`);
  const controller = new AbortController();
  const pending = chain(h.env())(controller.signal);
  const pid = Number(await until(() => existsSync(`${h.dir}/pid`) && readFileSync(`${h.dir}/pid`, "utf8"), { what: "the helper's pid" }));
  controller.abort();
  const err = await failure(pending);
  expect((err as ProviderError).kind).toBe("aborted");
  await until(
    () => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    },
    { what: "the helper to be killed" },
  );
});

test("credentials are kept until 5 minutes before they expire, then resolved again; concurrent callers share one run", async () => {
  const h = await home();
  const command = await helper(h, printAnswer);
  await h.write(".aws/config", `[default]\ncredential_process = ${command}\n`);
  const serve = async (expiresInMs: number) => {
    const k = keys(expiresInMs);
    await answer(h, {
      Version: 1,
      AccessKeyId: k.accessKeyId,
      SecretAccessKey: k.secretAccessKey,
      SessionToken: k.sessionToken,
      Expiration: k.expiration.toISOString(),
    });
    return k;
  };
  const resolve = chain(h.env());
  // Expiring in 4 minutes: inside the refresh window, so each call resolves again.
  const soon = await serve(4 * 60_000);
  const all = await Promise.all([resolve(), resolve(), resolve(), resolve(), resolve()]);
  expect(runs(h)).toBe(1);
  for (const c of all) expect(c.accessKeyId).toBe(soon.accessKeyId);
  // An hour away: resolved once more, then kept.
  const later = await serve(3600_000);
  expect((await resolve()).accessKeyId).toBe(later.accessKeyId);
  expect(runs(h)).toBe(2);
  await serve(3600_000);
  expect((await resolve()).accessKeyId).toBe(later.accessKeyId);
  expect((await resolve()).accessKeyId).toBe(later.accessKeyId);
  expect(runs(h)).toBe(2);
});

test("a refresh that fails keeps credentials that have not expired yet; once they have, the failure is the answer", async () => {
  const h = await home();
  const command = await helper(h, printAnswer);
  await h.write(".aws/config", `[default]\ncredential_process = ${command}\n`);
  const k = keys(4 * 60_000);
  await answer(h, { Version: 1, AccessKeyId: k.accessKeyId, SecretAccessKey: k.secretAccessKey, Expiration: k.expiration.toISOString() });
  const resolve = chain(h.env());
  expect((await resolve()).accessKeyId).toBe(k.accessKeyId);
  await answer(h, "{broken");
  expect((await resolve()).accessKeyId).toBe(k.accessKeyId);
  expect(runs(h)).toBe(2);
  // A chain that never had credentials reports the failure.
  expect((await failure(chain(h.env())())).message).toContain("not JSON");
});

test("the environment is read at each resolution", async () => {
  const h = await home();
  const env: Env = h.env();
  const resolve = chain(env);
  expect((await failure(resolve())).message).toContain("none found");
  env.AWS_ACCESS_KEY_ID = "AKIALATER";
  env.AWS_SECRET_ACCESS_KEY = "SECRET-later";
  expect((await resolve()).accessKeyId).toBe("AKIALATER");
});
