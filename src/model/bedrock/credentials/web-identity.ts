// Web identity (docs/providers.md#bedrock--aws-bedrock): a token file (an
// OIDC token, e.g. of an EKS service account) exchanged with STS
// AssumeRoleWithWebIdentity for a role's credentials. From the environment
// (AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN, AWS_ROLE_SESSION_NAME) or from a
// profile's web_identity_token_file and role_arn, as the SDK's fromTokenFile.
import { credentialsError } from "./failure.ts";
import { expandHome, KIB, readBounded } from "./files.ts";
import { assumeRoleWithWebIdentity } from "./sts.ts";
import { type Context, NextSource, type ResolvedCredentials } from "./types.ts";

const MAX_TOKEN_BYTES = 64 * KIB;

export interface WebIdentity {
  tokenFile: string;
  roleArn: string;
  roleSessionName?: string;
}

/** The step of the chain that reads the environment. */
export function fromWebIdentityEnv(ctx: Context): Promise<ResolvedCredentials> {
  const tokenFile = ctx.env.AWS_WEB_IDENTITY_TOKEN_FILE;
  const roleArn = ctx.env.AWS_ROLE_ARN;
  if (!tokenFile || !roleArn) throw new NextSource("web identity: AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN are not both set");
  return fromWebIdentity(ctx, { tokenFile, roleArn, roleSessionName: ctx.env.AWS_ROLE_SESSION_NAME }, "web identity (AWS_WEB_IDENTITY_TOKEN_FILE)");
}

export async function fromWebIdentity(ctx: Context, identity: WebIdentity, what: string): Promise<ResolvedCredentials> {
  const path = expandHome(identity.tokenFile, ctx.env);
  const token = (await readBounded(path, MAX_TOKEN_BYTES, `${what}: token file ${identity.tokenFile}`))?.trim();
  if (token === undefined) throw credentialsError(what, `token file ${identity.tokenFile} does not exist`);
  if (token === "") throw credentialsError(what, `token file ${identity.tokenFile} is empty`);
  return assumeRoleWithWebIdentity(
    ctx,
    { roleArn: identity.roleArn, roleSessionName: identity.roleSessionName || `aws-sdk-js-session-${Date.now()}`, webIdentityToken: token },
    what,
  );
}
