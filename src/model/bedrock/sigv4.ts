// AWS Signature Version 4 for one JSON request
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html):
// what the AWS SDK's SignatureV4 does for Bedrock's Converse calls and for the
// STS calls of the credential chain, without the SDK. The signed headers are
// host, content-type, x-amz-content-sha256, x-amz-date and, with temporary
// credentials, x-amz-security-token. test/model/bedrock-sigv4.test.ts checks
// each signature against the SDK's signer.
import { createHash, createHmac } from "node:crypto";

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SignedRequest {
  method: string;
  /** Absolute URL; its path as sent (already percent-encoded where needed). */
  url: string;
  body: string;
  contentType: string;
  region: string;
  service: string;
  credentials: AwsCredentials;
  /** The signing time; now by default. */
  now?: Date;
}

const sha256Hex = (data: string) => createHash("sha256").update(data, "utf8").digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data, "utf8").digest();

/** RFC 3986 encoding, as SigV4 wants it (`!'()*` encoded too); also how the SDK put a model id in a path. */
export const uriEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The headers to send: the request's own plus the signature. */
export function signedHeaders(request: SignedRequest): Record<string, string> {
  const url = new URL(request.url);
  const amzDate = (request.now ?? new Date())
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
  const day = amzDate.slice(0, 8);
  const payloadHash = sha256Hex(request.body);
  const headers: Record<string, string> = {
    "content-type": request.contentType,
    host: url.host,
    "x-amz-content-sha256": payloadHash,
    "x-amz-date": amzDate,
  };
  if (request.credentials.sessionToken) headers["x-amz-security-token"] = request.credentials.sessionToken;
  const names = Object.keys(headers).sort();
  const canonical = [
    request.method,
    // Services other than S3 sign the path's segments encoded once more.
    url.pathname
      .split("/")
      .map((segment) => uriEncode(segment))
      .join("/"),
    [...url.searchParams]
      .map(([k, v]) => `${uriEncode(k)}=${uriEncode(v)}`)
      .sort()
      .join("&"),
    names.map((n) => `${n}:${headers[n]!.trim().replace(/\s+/g, " ")}\n`).join(""),
    names.join(";"),
    payloadHash,
  ].join("\n");
  const scope = `${day}/${request.region}/${request.service}/aws4_request`;
  const toSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${sha256Hex(canonical)}`;
  const key = [day, request.region, request.service, "aws4_request"].reduce<Buffer | string>(
    (k, part) => hmac(k, part),
    `AWS4${request.credentials.secretAccessKey}`,
  );
  const signature = createHmac("sha256", key).update(toSign, "utf8").digest("hex");
  delete headers.host;
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${request.credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(";")}, Signature=${signature}`;
  return headers;
}
