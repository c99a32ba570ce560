// The Bedrock adapter signs its requests itself (src/model/bedrock/sigv4.ts);
// each signature here is checked against the AWS SDK's own signer
// (@smithy/signature-v4), over paths, queries, bodies, times and credentials
// that trip encoders.
import { expect, test } from "bun:test";
import { createHash, createHmac, type Hash, type Hmac } from "node:crypto";
import { SignatureV4 } from "@smithy/signature-v4";
import { signedHeaders, type AwsCredentials } from "../../src/model/bedrock/sigv4.ts";

const bytes = (d: string | ArrayBuffer | ArrayBufferView): string | Buffer =>
  typeof d === "string" ? d : ArrayBuffer.isView(d) ? Buffer.from(d.buffer, d.byteOffset, d.byteLength) : Buffer.from(d);

/** The hash the SDK's signer asks for, over node:crypto. */
class Sha256 {
  private readonly h: Hash | Hmac;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.h = secret ? createHmac("sha256", bytes(secret)) : createHash("sha256");
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.h.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.h.digest());
  }
}

async function sdkAuthorization(url: string, body: string, credentials: AwsCredentials, now: Date, region: string, service: string, sha: string) {
  const u = new URL(url);
  const query: Record<string, string> = {};
  for (const [k, v] of u.searchParams) query[k] = v;
  const signer = new SignatureV4({ service, region, credentials, sha256: Sha256 });
  const signed = await signer.sign(
    {
      method: "POST",
      protocol: u.protocol,
      hostname: u.hostname,
      port: u.port ? Number(u.port) : undefined,
      path: u.pathname,
      query,
      headers: { "content-type": "application/json", host: u.host, "x-amz-content-sha256": sha },
      body,
    },
    { signingDate: now },
  );
  return signed.headers.authorization;
}

const CASES: { url: string; body: string; credentials: AwsCredentials; now: string; region: string; service: string }[] = [
  {
    url: "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream",
    body: '{"messages":[{"role":"user","content":[{"text":"hi ü \\u2028"}]}]}',
    credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
    now: "2026-11-27T04:37:48.123Z",
    region: "us-east-1",
    service: "bedrock",
  },
  {
    url: "http://127.0.0.1:4567/model/amazon.nova-pro-v1%3A0/converse",
    body: "",
    credentials: { accessKeyId: "ASIAEXAMPLE", secretAccessKey: "temporary+secret/key", sessionToken: "IQoJb3JpZ2luX2VjE  spaced  token==" },
    now: "2027-01-01T00:00:00.000Z",
    region: "eu-central-1",
    service: "bedrock",
  },
  {
    url: "https://sts.us-west-2.amazonaws.com/?Action=AssumeRole&Version=2011-06-15&RoleSessionName=a%20b*c&RoleArn=arn%3Aaws%3Aiam%3A%3A1%3Arole%2Fx",
    body: "{}",
    credentials: { accessKeyId: "AKID", secretAccessKey: "secret" },
    now: "2026-02-28T23:59:59.999Z",
    region: "us-west-2",
    service: "sts",
  },
];

for (const c of CASES) {
  test(`the SDK's signature: ${c.service} ${new URL(c.url).pathname}${c.credentials.sessionToken ? ", temporary credentials" : ""}`, async () => {
    const now = new Date(c.now);
    const ours = signedHeaders({
      method: "POST",
      url: c.url,
      body: c.body,
      contentType: "application/json",
      region: c.region,
      service: c.service,
      credentials: c.credentials,
      now,
    });
    const sdk = await sdkAuthorization(c.url, c.body, c.credentials, now, c.region, c.service, ours["x-amz-content-sha256"]!);
    expect(ours.authorization).toBe(sdk!);
    expect(ours["x-amz-date"]).toBe(c.now.replace(/[-:]/g, "").replace(/\.\d{3}/, ""));
    expect(ours["x-amz-security-token"] as string | undefined).toBe(c.credentials.sessionToken);
    expect(ours.authorization).not.toContain(c.credentials.secretAccessKey);
  });
}
