// EC2 instance metadata (docs/providers.md#bedrock--aws-bedrock): the
// instance role's credentials, as the SDK's fromInstanceMetadata gets them.
// IMDSv2: a session token from `PUT /latest/api/token`, then the role name
// from `/latest/meta-data/iam/security-credentials/`, then its credentials.
// When the token request fails other than with HTTP 400, the SDK falls back
// to IMDSv1 (the same GETs without a token), unless AWS_EC2_METADATA_V1_DISABLED
// or the profile's ec2_metadata_v1_disabled is set; so does this. The
// endpoint: AWS_EC2_METADATA_SERVICE_ENDPOINT or the profile's
// ec2_metadata_service_endpoint, else by AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE
// (IPv4 http://169.254.169.254, IPv6 http://[fd00:ec2::254]). One second per
// request, no retries, as the SDK.
import { ProviderError } from "../../errors.ts";
import { credentialsFromJson } from "./container.ts";
import { credentialsError, shown } from "./failure.ts";
import { type Answer, exchange, parseJson } from "./http.ts";
import { loadSharedFiles, profileName, type Section } from "./ini.ts";
import type { Context, ResolvedCredentials } from "./types.ts";

const TIMEOUT_MS = 1000;
const CREDENTIALS_PATH = "/latest/meta-data/iam/security-credentials/";
const WHAT = "instance metadata";

const truthy = (v: string | undefined) => Boolean(v) && v !== "false";

export function imdsDisabled(ctx: Context): boolean {
  return truthy(ctx.env.AWS_EC2_METADATA_DISABLED);
}

async function settings(ctx: Context): Promise<{ endpoint: string; v1Disabled: boolean }> {
  let profile: Section | undefined;
  try {
    profile = (await loadSharedFiles(ctx.env)).profiles.get(profileName(ctx.env));
  } catch {
    profile = undefined; // as the SDK, unreadable files count as empty here
  }
  let endpoint = ctx.env.AWS_EC2_METADATA_SERVICE_ENDPOINT || profile?.ec2_metadata_service_endpoint;
  if (!endpoint) {
    const mode = ctx.env.AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE || profile?.ec2_metadata_service_endpoint_mode || "IPv4";
    if (mode === "IPv4") endpoint = "http://169.254.169.254";
    else if (mode === "IPv6") endpoint = "http://[fd00:ec2::254]";
    else throw credentialsError(WHAT, `endpoint mode '${shown(mode, 40)}' is neither IPv4 nor IPv6`);
  }
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw credentialsError(WHAT, "the endpoint is not a URL");
  }
  const envV1 = ctx.env.AWS_EC2_METADATA_V1_DISABLED;
  const v1Disabled = envV1 !== undefined ? truthy(envV1) : truthy(profile?.ec2_metadata_v1_disabled);
  return { endpoint: url.origin, v1Disabled };
}

export async function fromInstanceMetadata(ctx: Context): Promise<ResolvedCredentials> {
  const { endpoint, v1Disabled } = await settings(ctx);
  const get = async (path: string, headers: Record<string, string>): Promise<string> => {
    const answer = await exchange({ url: `${endpoint}${path}`, headers, timeoutMs: TIMEOUT_MS, signal: ctx.signal, what: WHAT });
    if (answer.status !== 200) throw credentialsError(WHAT, `${endpoint} answered HTTP ${answer.status} for ${path}`, { transient: answer.status >= 500 });
    return answer.text;
  };
  let headers: Record<string, string> = {};
  let tokenFailure: string | undefined;
  let tokenAnswer: Answer | undefined;
  try {
    tokenAnswer = await exchange({
      url: `${endpoint}/latest/api/token`,
      method: "PUT",
      headers: { "x-aws-ec2-metadata-token-ttl-seconds": "21600" },
      timeoutMs: TIMEOUT_MS,
      signal: ctx.signal,
      what: WHAT,
    });
  } catch (err) {
    if (err instanceof ProviderError && err.kind === "aborted") throw err;
    tokenFailure = err instanceof Error ? err.message.replace(/^AWS credentials: instance metadata: /, "") : String(err);
  }
  if (tokenAnswer?.status === 400) throw credentialsError(WHAT, `${endpoint} refused the token request (HTTP 400)`);
  if (tokenAnswer?.status === 200 && tokenAnswer.text.trim() !== "") headers = { "x-aws-ec2-metadata-token": tokenAnswer.text.trim() };
  else if (tokenAnswer) tokenFailure = `the token request answered HTTP ${tokenAnswer.status}`;
  if (tokenFailure !== undefined && v1Disabled) {
    throw credentialsError(
      WHAT,
      `no IMDSv2 token (${tokenFailure}) and the IMDSv1 fallback is disabled by AWS_EC2_METADATA_V1_DISABLED or ec2_metadata_v1_disabled`,
    );
  }
  const role = (await get(CREDENTIALS_PATH, headers)).trim();
  if (role === "" || /[/?#\s]/.test(role)) throw credentialsError(WHAT, "the instance has no usable role name");
  return credentialsFromJson(parseJson(await get(`${CREDENTIALS_PATH}${encodeURIComponent(role)}`, headers), WHAT), WHAT);
}
