// Fakes for the tests of the AWS credential chain (src/model/bedrock/credentials/):
// one HTTP server on 127.0.0.1 that plays STS, the SSO portal, the container
// endpoint and instance metadata as each test tells it to, recording what it
// was asked; temporary HOME directories with real ~/.aws files; STS answers
// shaped as real STS gives them.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Env } from "../../src/model/bedrock/credentials/types.ts";

export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: string;
}

export type Handler = (seen: Seen) => Response | Promise<Response>;

export class FakeAws {
  readonly seen: Seen[] = [];
  private constructor(
    private readonly server: ReturnType<typeof Bun.serve>,
    public handler: Handler,
  ) {}

  static start(handler: Handler = () => new Response("not set up", { status: 500 })): FakeAws {
    let fake: FakeAws | undefined;
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      idleTimeout: 30,
      fetch: async (req) => {
        const url = new URL(req.url);
        const seen: Seen = { method: req.method, path: url.pathname, query: url.searchParams, headers: req.headers, body: await req.text() };
        fake!.seen.push(seen);
        return fake!.handler(seen);
      },
    });
    fake = new FakeAws(server, handler);
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  /** What was asked of one path (or of any path when omitted). */
  calls(path?: string): Seen[] {
    return path === undefined ? this.seen : this.seen.filter((s) => s.path === path);
  }

  stop(): void {
    this.server.stop(true);
  }
}

export interface Keys {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration: Date;
}

let serial = 0;
/** Fresh keys, each secret distinctive so a leak into a message is found. */
export function keys(expiresInMs = 3600_000, tag = "k"): Keys {
  serial++;
  return {
    accessKeyId: `ASIA${tag.toUpperCase()}${serial}`,
    secretAccessKey: `SECRET-${tag}-${serial}-wJalrXUtnFEMI`,
    sessionToken: `TOKEN-${tag}-${serial}-FwoGZXIvYXdzE`,
    expiration: new Date(Math.floor((Date.now() + expiresInMs) / 1000) * 1000),
  };
}

/** Seconds precision, as STS and IMDS write it. */
const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

export function stsAnswer(action: "AssumeRole" | "AssumeRoleWithWebIdentity", k: Keys): Response {
  const extra =
    action === "AssumeRoleWithWebIdentity"
      ? "<SubjectFromWebIdentityToken>system:serviceaccount:ns:sa</SubjectFromWebIdentityToken><Audience>sts.amazonaws.com</Audience><Provider>arn:aws:iam::123456789012:oidc-provider/oidc.eks</Provider>"
      : "";
  const xml = `<${action}Response xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <${action}Result>
    ${extra}
    <AssumedRoleUser>
      <AssumedRoleId>AROA3XFRBF535PLBIFPI4:s3-access-example</AssumedRoleId>
      <Arn>arn:aws:sts::123456789012:assumed-role/demo/session</Arn>
    </AssumedRoleUser>
    <Credentials>
      <SecretAccessKey>${k.secretAccessKey}</SecretAccessKey>
      <SessionToken>${k.sessionToken}</SessionToken>
      <Expiration>${iso(k.expiration)}</Expiration>
      <AccessKeyId>${k.accessKeyId}</AccessKeyId>
    </Credentials>
    <PackedPolicySize>6</PackedPolicySize>
  </${action}Result>
  <ResponseMetadata>
    <RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId>
  </ResponseMetadata>
</${action}Response>`;
  return new Response(xml, { headers: { "content-type": "text/xml" } });
}

export function stsError(status: number, code: string, message: string): Response {
  const xml = `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <Error>
    <Type>Sender</Type>
    <Code>${code}</Code>
    <Message>${message}</Message>
  </Error>
  <RequestId>0f7ef8bb-0000-4000-8000-000000000000</RequestId>
</ErrorResponse>`;
  return new Response(xml, { status, headers: { "content-type": "text/xml" } });
}

/** The JSON the container endpoint and IMDS answer with. */
export function metadataAnswer(k: Keys): Response {
  return Response.json({
    Code: "Success",
    LastUpdated: iso(new Date()),
    Type: "AWS-HMAC",
    AccessKeyId: k.accessKeyId,
    SecretAccessKey: k.secretAccessKey,
    Token: k.sessionToken,
    Expiration: iso(k.expiration),
  });
}

export function ssoAnswer(k: Keys): Response {
  return Response.json({
    roleCredentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey, sessionToken: k.sessionToken, expiration: k.expiration.getTime() },
  });
}

export interface Home {
  dir: string;
  /** Writes a file under the home directory (parents made). */
  write(relative: string, text: string): Promise<string>;
  /** An environment with only this HOME, instance metadata off, and `extra`. */
  env(extra?: Env): Env;
  remove(): Promise<void>;
}

export async function tempHome(files: Record<string, string> = {}): Promise<Home> {
  const dir = await mkdtemp(join(tmpdir(), "crabtalk-aws-"));
  const home: Home = {
    dir,
    async write(relative, text) {
      const path = join(dir, relative);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
      return path;
    },
    env: (extra = {}) => ({ HOME: dir, AWS_EC2_METADATA_DISABLED: "true", ...extra }),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
  for (const [relative, text] of Object.entries(files)) await home.write(relative, text);
  return home;
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof Error) return err;
    throw new Error(`rejected with a non-Error: ${String(err)}`);
  }
  throw new Error("expected a failure, got credentials");
}

/** Asserts no secret of `k` is in `text`. */
export function noSecrets(text: string, ...secrets: (string | undefined)[]): void {
  for (const s of secrets) if (s && text.includes(s)) throw new Error(`secret leaked into: ${text}`);
}
