// A profile of the shared config and credentials files
// (docs/providers.md#bedrock--aws-bedrock), resolved by the rules of the SDK's
// fromIni, in its order: a role to assume (role_arn with source_profile or
// credential_source), static keys (aws_access_key_id, aws_secret_access_key,
// aws_session_token), web identity (role_arn with web_identity_token_file),
// credential_process, SSO. A source_profile with static keys gives them even
// if it is a role profile itself (so a profile can name itself as its
// source); a loop of source_profiles is an error. The STS region is the
// first role profile's `region`, else the Bedrock region.
import { fromContainer } from "./container.ts";
import { fromEnv } from "./env.ts";
import { credentialsError, shown } from "./failure.ts";
import { fromInstanceMetadata } from "./imds.ts";
import { loadSharedFiles, profileLabel, profileName, type Section, type SharedFiles } from "./ini.ts";
import { fromProcess } from "./process.ts";
import { fromSso, isSsoProfile } from "./sso.ts";
import { assumeRole } from "./sts.ts";
import { type Context, NextSource, type ResolvedCredentials } from "./types.ts";
import { fromWebIdentity } from "./web-identity.ts";

const str = (v: unknown): v is string => typeof v === "string";
const optStr = (v: unknown) => v === undefined || typeof v === "string";

const isStatic = (p: Section | undefined): boolean => p !== undefined && str(p.aws_access_key_id) && str(p.aws_secret_access_key);
const withSourceProfile = (p: Section) => str(p.source_profile) && p.credential_source === undefined;
const withCredentialSource = (p: Section) => str(p.credential_source) && p.source_profile === undefined;
const isAssumeRole = (p: Section | undefined): boolean =>
  p !== undefined && str(p.role_arn) && optStr(p.role_session_name) && optStr(p.external_id) && (withSourceProfile(p) || withCredentialSource(p));
const isWebIdentity = (p: Section | undefined): boolean => p !== undefined && str(p.web_identity_token_file) && str(p.role_arn);
const credentialSourceWithoutRole = (p: Section | undefined) => p !== undefined && !p.role_arn && Boolean(p.credential_source);

interface Walk {
  ctx: Context;
  files: SharedFiles;
  /** The profile the walk started from. */
  start: string;
  /** The source profiles entered so far, in order (the SDK's visitedProfiles). */
  visited: string[];
  /** The STS region, fixed by the first role profile met. */
  stsRegion?: string;
}

/** The chain's step for the shared files: the profile AWS_PROFILE names, else `default`. */
export async function fromProfile(ctx: Context): Promise<ResolvedCredentials> {
  const files = await loadSharedFiles(ctx.env);
  const name = profileName(ctx.env);
  return resolve({ ctx, files, start: name, visited: [] }, name, false);
}

async function resolve(walk: Walk, name: string, roleHop: boolean): Promise<ResolvedCredentials> {
  const { ctx, files } = walk;
  const data = files.profiles.get(name);
  const label = profileLabel(files, name, ctx.env);
  if (data === undefined) {
    if (walk.visited.length > 0) throw credentialsError(label, "is named as a source_profile but does not exist");
    throw new NextSource(label);
  }
  if (walk.visited.length > 0 && isStatic(data)) return staticKeys(data);
  if (roleHop || isAssumeRole(data)) return resolveRole(walk, data, label);
  if (isStatic(data)) return staticKeys(data);
  if (isWebIdentity(data)) {
    return fromWebIdentity(ctx, { tokenFile: data.web_identity_token_file!, roleArn: data.role_arn!, roleSessionName: data.role_session_name }, label);
  }
  if (str(data.credential_process)) return fromProcess(ctx, data.credential_process, label);
  if (isSsoProfile(data)) return fromSso(ctx, files, name, data, label);
  if (data.login_session) throw credentialsError(label, "login_session profiles ('aws login') are not supported; use static keys, SSO or a role");
  if (data.role_arn) throw credentialsError(label, "role_arn needs exactly one of source_profile and credential_source");
  if (walk.visited.length > 0) throw credentialsError(label, "has no credentials (keys, role, web identity, credential_process or SSO)");
  throw new NextSource(`${label}: no credentials in it`);
}

function staticKeys(p: Section): ResolvedCredentials {
  const credentials: ResolvedCredentials = { accessKeyId: p.aws_access_key_id!, secretAccessKey: p.aws_secret_access_key! };
  if (p.aws_session_token) credentials.sessionToken = p.aws_session_token;
  return credentials;
}

async function resolveRole(walk: Walk, data: Section, label: string): Promise<ResolvedCredentials> {
  const { ctx, files } = walk;
  walk.stsRegion ??= data.region || ctx.region;
  const source = data.source_profile;
  if (source !== undefined && walk.visited.includes(source)) {
    // The loop as it is walked, up to the first profile met twice.
    const walked = [walk.start, ...walk.visited, source];
    const again = walked.findIndex((n, i) => walked.indexOf(n) < i);
    const path = walked
      .slice(0, again + 1)
      .map((n) => `'${shown(n, 80)}'`)
      .join(" → ");
    throw credentialsError(label, `source_profile '${shown(source, 80)}' loops back: ${path}`);
  }
  let sourceCredentials: ResolvedCredentials;
  if (source !== undefined) {
    sourceCredentials = await resolve({ ...walk, visited: [...walk.visited, source] }, source, credentialSourceWithoutRole(files.profiles.get(source)));
  } else {
    sourceCredentials = await fromCredentialSource(ctx, data.credential_source ?? "", label);
  }
  if (credentialSourceWithoutRole(data)) return sourceCredentials;
  if (data.mfa_serial) throw credentialsError(label, "the role needs an MFA code (mfa_serial), which crabtalk cannot ask for");
  const duration = Number.parseInt(data.duration_seconds || "3600", 10);
  if (!Number.isFinite(duration)) throw credentialsError(label, "duration_seconds is not a number");
  return assumeRole(
    ctx,
    walk.stsRegion,
    sourceCredentials,
    { roleArn: data.role_arn!, roleSessionName: data.role_session_name || `aws-sdk-js-${Date.now()}`, externalId: data.external_id, durationSeconds: duration },
    `${label}: role ${shown(data.role_arn ?? "", 200)}`,
  );
}

async function fromCredentialSource(ctx: Context, source: string, label: string): Promise<ResolvedCredentials> {
  const what = `${label}: credential_source ${shown(source, 40)}`;
  try {
    if (source === "Environment") return fromEnv(ctx.env, what);
    if (source === "Ec2InstanceMetadata") return await fromInstanceMetadata(ctx);
    if (source === "EcsContainer") return await fromContainer(ctx);
  } catch (err) {
    if (err instanceof NextSource) throw credentialsError(label, err.message);
    throw err;
  }
  throw credentialsError(label, `credential_source '${shown(source, 40)}' is not one of Environment, Ec2InstanceMetadata, EcsContainer`);
}
