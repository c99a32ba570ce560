// STS AssumeRole and AssumeRoleWithWebIdentity over HTTP
// (docs/providers.md#bedrock--aws-bedrock): the Query protocol the SDK's STS
// client speaks (a form POST to the endpoint's root, version 2011-06-15),
// AssumeRole signed with the source credentials (sigv4.ts, service "sts"),
// AssumeRoleWithWebIdentity unsigned as in the SDK. The XML answer is read
// with xml.ts; an error answer's Code and Message are shown.
import { signedHeaders } from "../sigv4.ts";
import { serviceEndpoint } from "./endpoints.ts";
import { credentialsError, shown } from "./failure.ts";
import { exchange, type Answer } from "./http.ts";
import type { Context, ResolvedCredentials } from "./types.ts";
import { child, parseXml, XmlError, type XmlElement } from "./xml.ts";
import type { AwsCredentials } from "../sigv4.ts";

const STS_TIMEOUT_MS = 10_000;
const FORM = "application/x-www-form-urlencoded";

export interface AssumeRoleParams {
  roleArn: string;
  roleSessionName: string;
  externalId?: string;
  durationSeconds?: number;
}

/** AssumeRole with `source`'s credentials; `region` picks the STS endpoint and signs the call. */
export async function assumeRole(ctx: Context, region: string, source: AwsCredentials, params: AssumeRoleParams, what: string): Promise<ResolvedCredentials> {
  const body = form({
    Action: "AssumeRole",
    Version: "2011-06-15",
    RoleArn: params.roleArn,
    RoleSessionName: params.roleSessionName,
    ExternalId: params.externalId,
    DurationSeconds: params.durationSeconds === undefined ? undefined : String(params.durationSeconds),
  });
  const url = `${serviceEndpoint("STS", region, ctx.env)}/`;
  const headers = signedHeaders({ method: "POST", url, body, contentType: FORM, region, service: "sts", credentials: source });
  const answer = await exchange({ url, method: "POST", headers, body, timeoutMs: STS_TIMEOUT_MS, signal: ctx.signal, what });
  return credentialsOf(answer, "AssumeRole", what);
}

/** AssumeRoleWithWebIdentity: the token is the proof, the call is not signed. */
export async function assumeRoleWithWebIdentity(
  ctx: Context,
  params: { roleArn: string; roleSessionName: string; webIdentityToken: string },
  what: string,
): Promise<ResolvedCredentials> {
  const body = form({
    Action: "AssumeRoleWithWebIdentity",
    Version: "2011-06-15",
    RoleArn: params.roleArn,
    RoleSessionName: params.roleSessionName,
    WebIdentityToken: params.webIdentityToken,
  });
  const url = `${serviceEndpoint("STS", ctx.region, ctx.env)}/`;
  const answer = await exchange({ url, method: "POST", headers: { "content-type": FORM }, body, timeoutMs: STS_TIMEOUT_MS, signal: ctx.signal, what });
  return credentialsOf(answer, "AssumeRoleWithWebIdentity", what);
}

function form(fields: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) params.append(k, v);
  return params.toString();
}

function credentialsOf(answer: Answer, action: string, what: string): ResolvedCredentials {
  let root: XmlElement;
  try {
    root = parseXml(answer.text);
  } catch (err) {
    if (!(err instanceof XmlError)) throw err;
    const status = answer.status === 200 ? "" : ` (HTTP ${answer.status})`;
    throw credentialsError(what, `STS ${action}${status} answered with unreadable XML: ${err.message}`, { cause: err, transient: answer.status >= 500 });
  }
  if (answer.status !== 200) {
    const error = child(root, "Error");
    const code = child(error, "Code")?.text.trim() || "error";
    const message = child(error, "Message")?.text.trim();
    const transient = answer.status >= 500 || code === "Throttling";
    throw credentialsError(what, `STS ${action} refused (HTTP ${answer.status} ${shown(code, 80)})${message ? `: ${shown(message)}` : ""}`, { transient });
  }
  const credentials = child(root, `${action}Result`, "Credentials");
  const field = (name: string) => child(credentials, name)?.text.trim() ?? "";
  const accessKeyId = field("AccessKeyId");
  const secretAccessKey = field("SecretAccessKey");
  const sessionToken = field("SessionToken");
  const expiration = new Date(field("Expiration"));
  if (!accessKeyId || !secretAccessKey || !sessionToken || Number.isNaN(expiration.getTime())) {
    throw credentialsError(what, `STS ${action} answered without AccessKeyId, SecretAccessKey, SessionToken and Expiration`);
  }
  return { accessKeyId, secretAccessKey, sessionToken, expiration };
}
