// The AWS credential chain (src/model/bedrock/credentials/) against fake AWS
// endpoints on 127.0.0.1: STS AssumeRole (signed with the source
// credentials) and AssumeRoleWithWebIdentity, the SSO portal, the container
// endpoint, instance metadata (IMDSv2 and its v1 fallback). Each source's
// good path, its refusals, hostile answers (huge, endless, malformed), the
// precedence between sources, and the SDK's own defaultProvider resolving the
// same credentials from the same files and servers.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { defaultProvider } from "@aws-sdk/credential-provider-node";
import { defaultCredentialChain } from "../../src/model/bedrock/credentials/chain.ts";
import type { Env } from "../../src/model/bedrock/credentials/types.ts";
import type { ProviderError } from "../../src/model/errors.ts";
import {
  FakeAws,
  failure,
  type Home,
  type Keys,
  keys,
  metadataAnswer,
  noSecrets,
  ssoAnswer,
  stsAnswer,
  stsError,
  tempHome,
} from "./bedrock-credentials-fixtures.ts";

let aws: FakeAws;
let h: Home;
beforeEach(async () => {
  aws = FakeAws.start();
  h = await tempHome();
});
afterEach(async () => {
  aws.stop();
  await h.remove();
});

const chain = (env: Env, region = "us-east-1") => defaultCredentialChain({ region, env });
const plain = (k: Keys) => ({ accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey, sessionToken: k.sessionToken, expiration: k.expiration });
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** The SDK's defaultProvider over the same environment (it reads process.env only). */
async function sdkResolve(env: Env, region = "us-east-1") {
  const saved = { ...process.env };
  for (const k of Object.keys(process.env)) if (k.startsWith("AWS_")) delete process.env[k];
  for (const [k, v] of Object.entries(env)) if (v !== undefined) process.env[k] = v;
  try {
    const c = await defaultProvider({ logger: quiet, parentClientConfig: { region } })();
    return { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, sessionToken: c.sessionToken, expiration: c.expiration };
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

const form = (body: string) => Object.fromEntries(new URLSearchParams(body));

// STS AssumeRole

test("role_arn with source_profile: AssumeRole signed with the source's keys, in the profile's region; the SDK agrees", async () => {
  await h.write(
    ".aws/config",
    "[profile dev]\nrole_arn = arn:aws:iam::123456789012:role/dev\nsource_profile = base\nrole_session_name = me\nexternal_id = ext-1\nduration_seconds = 900\nregion = eu-west-3\n",
  );
  await h.write(".aws/credentials", "[base]\naws_access_key_id = AKIABASE\naws_secret_access_key = SECRET-base\naws_session_token = TOKEN-base\n");
  const k = keys();
  aws.handler = () => stsAnswer("AssumeRole", k);
  const env = h.env({ AWS_PROFILE: "dev", AWS_ENDPOINT_URL_STS: aws.url });
  expect(await chain(env)()).toEqual(plain(k));
  const [call] = aws.calls("/");
  expect(call!.method).toBe("POST");
  expect(form(call!.body)).toEqual({
    Action: "AssumeRole",
    Version: "2011-06-15",
    RoleArn: "arn:aws:iam::123456789012:role/dev",
    RoleSessionName: "me",
    ExternalId: "ext-1",
    DurationSeconds: "900",
  });
  expect(call!.headers.get("authorization")).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIABASE\/\d{8}\/eu-west-3\/sts\/aws4_request, /);
  expect(call!.headers.get("x-amz-security-token")).toBe("TOKEN-base");
  expect(await sdkResolve(env)).toEqual(plain(k));
  const sdkCall = aws.calls("/")[1]!;
  expect(form(sdkCall.body)).toEqual(form(call!.body));
  expect(sdkCall.headers.get("authorization")?.split(", ")[0]).toBe(call!.headers.get("authorization")?.split(", ")[0]);
});

test("a chain of roles: each hop assumes the next with the previous hop's credentials", async () => {
  await h.write(
    ".aws/config",
    "[profile top]\nrole_arn = arn:aws:iam::1:role/top\nsource_profile = middle\n[profile middle]\nrole_arn = arn:aws:iam::1:role/middle\nsource_profile = base\n[profile base]\naws_access_key_id = AKIABASE\naws_secret_access_key = SECRET-base\n",
  );
  const middle = keys(3600_000, "middle");
  const top = keys(3600_000, "top");
  aws.handler = (seen) => stsAnswer("AssumeRole", form(seen.body).RoleArn!.endsWith("middle") ? middle : top);
  const env = h.env({ AWS_PROFILE: "top", AWS_ENDPOINT_URL_STS: aws.url });
  expect(await chain(env, "ap-south-1")()).toEqual(plain(top));
  const [first, second] = aws.calls("/");
  expect(first!.headers.get("authorization")).toContain("Credential=AKIABASE/");
  expect(first!.headers.get("authorization")).toContain("/ap-south-1/sts/");
  expect(second!.headers.get("authorization")).toContain(`Credential=${middle.accessKeyId}/`);
  expect(second!.headers.get("x-amz-security-token")).toBe(middle.sessionToken);
  expect(await sdkResolve(env, "ap-south-1")).toEqual(plain(top));
});

test("role_arn with credential_source Environment and EcsContainer", async () => {
  await h.write(
    ".aws/config",
    "[profile env]\nrole_arn = arn:aws:iam::1:role/x\ncredential_source = Environment\n[profile ecs]\nrole_arn = arn:aws:iam::1:role/y\ncredential_source = EcsContainer\n",
  );
  const k = keys();
  const container = keys(3600_000, "ecs");
  aws.handler = (seen) => (seen.path === "/creds" ? metadataAnswer(container) : stsAnswer("AssumeRole", k));
  const base = { AWS_ENDPOINT_URL_STS: aws.url, AWS_ACCESS_KEY_ID: "AKIAENV", AWS_SECRET_ACCESS_KEY: "SECRET-env" };
  expect(await chain(h.env({ ...base, AWS_PROFILE: "env" }))()).toEqual(plain(k));
  expect(aws.calls("/")[0]!.headers.get("authorization")).toContain("Credential=AKIAENV/");
  const ecs = h.env({ AWS_PROFILE: "ecs", AWS_ENDPOINT_URL_STS: aws.url, AWS_CONTAINER_CREDENTIALS_FULL_URI: `${aws.url}/creds` });
  expect(await chain(ecs)()).toEqual(plain(k));
  expect(aws.calls("/")[1]!.headers.get("authorization")).toContain(`Credential=${container.accessKeyId}/`);
  const missing = await failure(chain(h.env({ AWS_PROFILE: "env", AWS_ENDPOINT_URL_STS: aws.url }))());
  expect(missing.message).toBe(
    "AWS credentials: profile 'env' in ~/.aws/config: profile 'env' in ~/.aws/config: credential_source Environment: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not both set",
  );
});

test("STS refusals and broken answers are clear errors, without secrets", async () => {
  await h.write(
    ".aws/config",
    "[profile dev]\nrole_arn = arn:aws:iam::1:role/dev\nsource_profile = base\n[profile base]\naws_access_key_id = AKIABASE\naws_secret_access_key = SECRET-base\n",
  );
  const env = h.env({ AWS_PROFILE: "dev", AWS_ENDPOINT_URL_STS: aws.url });
  const where = "AWS credentials: profile 'dev' in ~/.aws/config: role arn:aws:iam::1:role/dev:";
  aws.handler = () => stsError(403, "AccessDenied", "User: arn:aws:iam::1:user/me is not authorized to perform: sts:AssumeRole");
  const denied = await failure(chain(env)());
  expect(denied.message).toBe(
    `${where} STS AssumeRole refused (HTTP 403 AccessDenied): User: arn:aws:iam::1:user/me is not authorized to perform: sts:AssumeRole`,
  );
  expect((denied as ProviderError).transient).toBe(false);
  expect((denied as ProviderError).status).toBeUndefined();
  aws.handler = () => stsError(400, "Throttling", "Rate exceeded");
  expect((await failure(chain(env)())) as ProviderError).toMatchObject({ transient: true });
  aws.handler = () => new Response("<AssumeRoleResponse><AssumeRoleResult>", { status: 200 });
  expect((await failure(chain(env)())).message).toBe(`${where} STS AssumeRole answered with unreadable XML: <AssumeRoleResult> is not closed`);
  aws.handler = () => new Response(`<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>`);
  expect((await failure(chain(env)())).message).toContain("document type declarations are not accepted");
  aws.handler = () =>
    new Response("<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>A</AccessKeyId></Credentials></AssumeRoleResult></AssumeRoleResponse>");
  expect((await failure(chain(env)())).message).toBe(`${where} STS AssumeRole answered without AccessKeyId, SecretAccessKey, SessionToken and Expiration`);
  aws.handler = () => new Response(`<a>${"<b>".repeat(100)}</a>`);
  expect((await failure(chain(env)())).message).toContain("nested deeper than 32");
  aws.handler = () => new Response("x".repeat(1024 * 1024));
  expect((await failure(chain(env)())).message).toBe(`${where} the answer is larger than 64 KiB`);
  for (const err of [denied]) noSecrets(err.message, "SECRET-base");
  const closed = FakeAws.start();
  const url = closed.url;
  closed.stop();
  const unreachable = await failure(chain({ ...env, AWS_ENDPOINT_URL_STS: url })());
  expect(unreachable.message).toStartWith(`${where} cannot connect to ${url} (`);
  expect((unreachable as ProviderError).transient).toBe(true);
});

// Web identity

test("web identity from the environment and from a profile: the token goes to AssumeRoleWithWebIdentity, unsigned; the SDK agrees", async () => {
  const tokenFile = await h.write("token", "eyJhbGciOiJSUzI1NiJ9.WEB-IDENTITY-SECRET.sig\n");
  const k = keys();
  aws.handler = () => stsAnswer("AssumeRoleWithWebIdentity", k);
  const env = h.env({
    AWS_WEB_IDENTITY_TOKEN_FILE: tokenFile,
    AWS_ROLE_ARN: "arn:aws:iam::1:role/pod",
    AWS_ROLE_SESSION_NAME: "pod-1",
    AWS_ENDPOINT_URL_STS: aws.url,
  });
  expect(await chain(env)()).toEqual(plain(k));
  const [call] = aws.calls("/");
  expect(form(call!.body)).toEqual({
    Action: "AssumeRoleWithWebIdentity",
    Version: "2011-06-15",
    RoleArn: "arn:aws:iam::1:role/pod",
    RoleSessionName: "pod-1",
    WebIdentityToken: "eyJhbGciOiJSUzI1NiJ9.WEB-IDENTITY-SECRET.sig",
  });
  expect(call!.headers.get("authorization")).toBeNull();
  expect(await sdkResolve(env)).toEqual(plain(k));

  await h.write(".aws/config", `[profile pod]\nrole_arn = arn:aws:iam::1:role/p\nweb_identity_token_file = ${tokenFile}\n`);
  expect(await chain(h.env({ AWS_PROFILE: "pod", AWS_ENDPOINT_URL_STS: aws.url }))()).toEqual(plain(k));
  expect(form(aws.calls("/").at(-1)!.body).RoleArn).toBe("arn:aws:iam::1:role/p");

  const missing = await failure(chain({ ...env, AWS_WEB_IDENTITY_TOKEN_FILE: `${h.dir}/nope` })());
  expect(missing.message).toBe(`AWS credentials: web identity (AWS_WEB_IDENTITY_TOKEN_FILE): token file ${h.dir}/nope does not exist`);
  aws.handler = () => stsError(400, "InvalidIdentityToken", "Couldn't retrieve verification key from your identity provider");
  const refused = await failure(chain(env)());
  expect(refused.message).toContain("STS AssumeRoleWithWebIdentity refused (HTTP 400 InvalidIdentityToken)");
  noSecrets(refused.message, "WEB-IDENTITY-SECRET");
});

// SSO

const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");

test("SSO profiles, sso-session and legacy: the cached token goes to GetRoleCredentials; the SDK agrees", async () => {
  await h.write(
    ".aws/config",
    [
      "[profile new]",
      "sso_session = corp",
      "sso_account_id = 111122223333",
      "sso_role_name = Dev",
      "[sso-session corp]",
      "sso_start_url = https://corp.awsapps.com/start",
      "sso_region = us-east-2",
      "[profile old]",
      "sso_start_url = https://old.awsapps.com/start",
      "sso_region = eu-west-1",
      "sso_account_id = 444455556666",
      "sso_role_name = Admin",
    ].join("\n"),
  );
  const later = new Date(Date.now() + 3600_000).toISOString();
  await h.write(`.aws/sso/cache/${sha1("corp")}.json`, JSON.stringify({ accessToken: "SSO-TOKEN-new", expiresAt: later }));
  await h.write(`.aws/sso/cache/${sha1("https://old.awsapps.com/start")}.json`, JSON.stringify({ accessToken: "SSO-TOKEN-old", expiresAt: later }));
  const k = keys();
  aws.handler = () => ssoAnswer(k);
  for (const [profile, token, account, role] of [
    ["new", "SSO-TOKEN-new", "111122223333", "Dev"],
    ["old", "SSO-TOKEN-old", "444455556666", "Admin"],
  ] as const) {
    const env = h.env({ AWS_PROFILE: profile, AWS_ENDPOINT_URL_SSO: aws.url });
    expect(await chain(env)()).toEqual(plain(k));
    const call = aws.calls("/federation/credentials").at(-1)!;
    expect(call.method).toBe("GET");
    expect(call.query.get("account_id")).toBe(account);
    expect(call.query.get("role_name")).toBe(role);
    expect(call.headers.get("x-amz-sso_bearer_token")).toBe(token);
    expect(await sdkResolve(env)).toEqual(plain(k));
  }
});

test("SSO refusals: expired or missing token, portal 401, incomplete profile; the token never shown", async () => {
  await h.write(
    ".aws/config",
    "[profile dev]\nsso_start_url = https://x.awsapps.com/start\nsso_region = us-east-1\nsso_account_id = 1\nsso_role_name = R\n[profile half]\nsso_account_id = 1\n[profile lost]\nsso_session = nowhere\nsso_account_id = 1\nsso_role_name = R\n",
  );
  const env = h.env({ AWS_PROFILE: "dev", AWS_ENDPOINT_URL_SSO: aws.url });
  const where = "AWS credentials: profile 'dev' in ~/.aws/config:";
  const tokenPath = `.aws/sso/cache/${sha1("https://x.awsapps.com/start")}.json`;
  expect((await failure(chain(env)())).message).toBe(`${where} no cached SSO token (~/${tokenPath}); run 'aws sso login --profile dev'`);
  await h.write(tokenPath, JSON.stringify({ accessToken: "SSO-SECRET-TOKEN", expiresAt: new Date(Date.now() - 1000).toISOString() }));
  const expired = await failure(chain(env)());
  expect(expired.message).toBe(`${where} the SSO session has expired; run 'aws sso login --profile dev'`);
  await h.write(tokenPath, JSON.stringify({ accessToken: "SSO-SECRET-TOKEN", expiresAt: new Date(Date.now() + 3600_000).toISOString() }));
  aws.handler = () =>
    Response.json({ message: "Session token not found or invalid" }, { status: 401, headers: { "x-amzn-errortype": "UnauthorizedException:http://internal" } });
  const refused = await failure(chain(env)());
  expect(refused.message).toBe(
    `${where} the SSO portal refused GetRoleCredentials (HTTP 401 UnauthorizedException: Session token not found or invalid); run 'aws sso login --profile dev'`,
  );
  aws.handler = () => Response.json({ roleCredentials: { accessKeyId: "A", secretAccessKey: 5 } });
  expect((await failure(chain(env)())).message).toBe(`${where} the SSO portal answered without accessKeyId, secretAccessKey, sessionToken and expiration`);
  aws.handler = () => new Response("{ not json");
  expect((await failure(chain(env)())).message).toBe(`${where} the answer is not JSON`);
  for (const err of [expired, refused]) noSecrets(err.message, "SSO-SECRET-TOKEN");
  expect((await failure(chain(h.env({ AWS_PROFILE: "half" }))())).message).toBe(
    "AWS credentials: profile 'half' in ~/.aws/config: an SSO profile needs sso_region, sso_role_name, sso_start_url",
  );
  expect((await failure(chain(h.env({ AWS_PROFILE: "lost" }))())).message).toBe(
    "AWS credentials: profile 'lost' in ~/.aws/config: sso-session 'nowhere' is not in ~/.aws/config",
  );
});

// Container credentials

test("container credentials from AWS_CONTAINER_CREDENTIALS_FULL_URI with the authorization token (file preferred); the SDK agrees", async () => {
  const k = keys();
  aws.handler = (seen) => (seen.headers.get("authorization") === "CONTAINER-SECRET" ? metadataAnswer(k) : new Response("{}", { status: 403 }));
  const env = h.env({ AWS_CONTAINER_CREDENTIALS_FULL_URI: `${aws.url}/v2/credentials?id=1`, AWS_CONTAINER_AUTHORIZATION_TOKEN: "CONTAINER-SECRET" });
  expect(await chain(env)()).toEqual(plain(k));
  expect(aws.calls("/v2/credentials")[0]!.query.get("id")).toBe("1");
  expect(await sdkResolve(env)).toEqual(plain(k));
  const file = await h.write("container-token", "CONTAINER-SECRET\n");
  expect(await chain({ ...env, AWS_CONTAINER_AUTHORIZATION_TOKEN: "wrong", AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: file })()).toEqual(plain(k));
  const refused = await failure(chain({ ...env, AWS_CONTAINER_AUTHORIZATION_TOKEN: "wrong" })());
  expect(refused.message).toBe(`AWS credentials: container credentials: ${aws.url} answered HTTP 403`);
  noSecrets(refused.message, "wrong", "CONTAINER-SECRET");
});

test("container credentials: hosts the SDK refuses, broken answers, a token with a line break", async () => {
  const env = (uri: string, extra: Env = {}) => h.env({ AWS_CONTAINER_CREDENTIALS_FULL_URI: uri, ...extra });
  expect((await failure(chain(env("http://example.com/creds"))())).message).toContain("AWS_CONTAINER_CREDENTIALS_FULL_URI host 'example.com' is not accepted");
  expect((await failure(chain(env("http://10.0.0.1/creds"))())).message).toContain("is not accepted");
  aws.handler = () => Response.json({ AccessKeyId: "A", SecretAccessKey: "S", Token: 3, Expiration: "2030-01-01T00:00:00Z" });
  expect((await failure(chain(env(`${aws.url}/c`))())).message).toBe(
    "AWS credentials: container credentials: the answer is not {AccessKeyId, SecretAccessKey, Token, Expiration} as strings",
  );
  aws.handler = () => new Response("[1,2");
  expect((await failure(chain(env(`${aws.url}/c`))())).message).toBe("AWS credentials: container credentials: the answer is not JSON");
  aws.handler = () => new Response("y".repeat(200_000));
  expect((await failure(chain(env(`${aws.url}/c`))())).message).toBe("AWS credentials: container credentials: the answer is larger than 64 KiB");
  expect((await failure(chain(env(`${aws.url}/c`, { AWS_CONTAINER_AUTHORIZATION_TOKEN: "a\r\nX-Evil: 1" }))())).message).toBe(
    "AWS credentials: container credentials: the authorization token contains a line break",
  );
});

// Instance metadata

function imds(k: () => Keys, options: { tokenStatus?: number } = {}) {
  return (seen: { method: string; path: string; headers: Headers }) => {
    if (seen.path === "/latest/api/token") {
      if (options.tokenStatus) return new Response("", { status: options.tokenStatus });
      return seen.method === "PUT" && seen.headers.get("x-aws-ec2-metadata-token-ttl-seconds") === "21600"
        ? new Response("IMDS-SESSION-TOKEN")
        : new Response("", { status: 400 });
    }
    if (!options.tokenStatus && seen.headers.get("x-aws-ec2-metadata-token") !== "IMDS-SESSION-TOKEN") return new Response("", { status: 401 });
    if (seen.path === "/latest/meta-data/iam/security-credentials/") return new Response("my-role\n");
    if (seen.path === "/latest/meta-data/iam/security-credentials/my-role") return metadataAnswer(k());
    return new Response("", { status: 404 });
  };
}

test("instance metadata, IMDSv2: token, role, credentials; the SDK agrees", async () => {
  const k = keys();
  aws.handler = imds(() => k);
  const env = h.env({ AWS_EC2_METADATA_DISABLED: undefined, AWS_EC2_METADATA_SERVICE_ENDPOINT: aws.url });
  expect(await chain(env)()).toEqual(plain(k));
  expect(aws.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
    "PUT /latest/api/token",
    "GET /latest/meta-data/iam/security-credentials/",
    "GET /latest/meta-data/iam/security-credentials/my-role",
  ]);
  expect(await sdkResolve(env)).toEqual(plain(k));
});

test("instance metadata falls back to IMDSv1 when the token request is refused, unless AWS_EC2_METADATA_V1_DISABLED", async () => {
  const k = keys();
  aws.handler = imds(() => k, { tokenStatus: 403 });
  const env = h.env({ AWS_EC2_METADATA_DISABLED: undefined, AWS_EC2_METADATA_SERVICE_ENDPOINT: aws.url });
  expect(await chain(env)()).toEqual(plain(k));
  expect(aws.calls("/latest/meta-data/iam/security-credentials/")[0]!.headers.get("x-aws-ec2-metadata-token")).toBeNull();
  const err = await failure(chain({ ...env, AWS_EC2_METADATA_V1_DISABLED: "true" })());
  expect(err.message).toContain("instance metadata: no IMDSv2 token (the token request answered HTTP 403) and the IMDSv1 fallback is disabled");
  expect(err.message).toStartWith("AWS credentials: none found. Tried environment:");
});

test("an endpoint that never finishes its answer is a timeout, not a hang", async () => {
  aws.handler = (seen) =>
    seen.path === "/latest/api/token"
      ? new Response("T")
      : new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode("my-"));
            },
          }),
        );
  const started = Date.now();
  const err = await failure(chain(h.env({ AWS_EC2_METADATA_DISABLED: undefined, AWS_EC2_METADATA_SERVICE_ENDPOINT: aws.url }))());
  expect(err.message).toContain(`instance metadata: no complete answer from ${aws.url} within 1s`);
  expect(Date.now() - started).toBeLessThan(5000);
});

test("instance metadata credentials are cached until 5 minutes before expiry; concurrent callers make one set of requests", async () => {
  let next = keys(4 * 60_000);
  aws.handler = imds(() => next);
  const resolve = chain(h.env({ AWS_EC2_METADATA_DISABLED: undefined, AWS_EC2_METADATA_SERVICE_ENDPOINT: aws.url }));
  const first = await Promise.all([resolve(), resolve(), resolve()]);
  expect(new Set(first.map((c) => c.accessKeyId))).toEqual(new Set([next.accessKeyId]));
  expect(aws.calls("/latest/meta-data/iam/security-credentials/my-role")).toHaveLength(1);
  next = keys(3600_000);
  expect((await resolve()).accessKeyId).toBe(next.accessKeyId);
  expect((await resolve()).accessKeyId).toBe(next.accessKeyId);
  expect(aws.calls("/latest/meta-data/iam/security-credentials/my-role")).toHaveLength(2);
});

test("a caller's abort ends its wait; the shared resolution goes on for the others", async () => {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const k = keys();
  aws.handler = async (seen) => {
    if (seen.path === "/c") await gate;
    return metadataAnswer(k);
  };
  const resolve = chain(h.env({ AWS_CONTAINER_CREDENTIALS_FULL_URI: `${aws.url}/c` }));
  const controller = new AbortController();
  const aborted = resolve(controller.signal);
  const patient = resolve();
  controller.abort();
  expect(((await failure(aborted)) as ProviderError).kind).toBe("aborted");
  release();
  expect(await patient).toEqual(plain(k));
  expect(aws.calls("/c")).toHaveLength(1);
});

// Precedence

test("precedence: profile over web identity over container over instance metadata", async () => {
  const fromProfile = keys(3600_000, "profile");
  const fromWeb = keys(3600_000, "web");
  const fromContainer = keys(3600_000, "container");
  const fromImds = keys(3600_000, "imds");
  const tokenFile = await h.write("token", "jwt");
  aws.handler = (seen) => {
    if (seen.path.startsWith("/sts")) return stsAnswer("AssumeRoleWithWebIdentity", fromWeb);
    if (seen.path === "/container") return metadataAnswer(fromContainer);
    return imds(() => fromImds)(seen);
  };
  const all: Env = {
    AWS_EC2_METADATA_DISABLED: undefined,
    AWS_EC2_METADATA_SERVICE_ENDPOINT: aws.url,
    AWS_CONTAINER_CREDENTIALS_FULL_URI: `${aws.url}/container`,
    AWS_WEB_IDENTITY_TOKEN_FILE: tokenFile,
    AWS_ROLE_ARN: "arn:aws:iam::1:role/web",
    AWS_ENDPOINT_URL_STS: `${aws.url}/sts`,
  };
  await h.write(".aws/credentials", `[default]\naws_access_key_id = ${fromProfile.accessKeyId}\naws_secret_access_key = ${fromProfile.secretAccessKey}\n`);
  expect((await chain(h.env(all))()).accessKeyId).toBe(fromProfile.accessKeyId);
  await h.write(".aws/credentials", "");
  expect((await chain(h.env(all))()).accessKeyId).toBe(fromWeb.accessKeyId);
  expect((await sdkResolve(h.env(all))).accessKeyId).toBe(fromWeb.accessKeyId);
  const noWeb = { ...all, AWS_ROLE_ARN: undefined };
  expect((await chain(h.env(noWeb))()).accessKeyId).toBe(fromContainer.accessKeyId);
  expect((await sdkResolve(h.env(noWeb))).accessKeyId).toBe(fromContainer.accessKeyId);
  const onlyImds = { ...noWeb, AWS_CONTAINER_CREDENTIALS_FULL_URI: undefined };
  expect((await chain(h.env(onlyImds))()).accessKeyId).toBe(fromImds.accessKeyId);
});
