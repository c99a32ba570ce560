// Credentials from the environment (docs/providers.md#bedrock--aws-bedrock):
// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, with AWS_SESSION_TOKEN and
// AWS_CREDENTIAL_EXPIRATION when set, as the SDK's fromEnv reads them.
import { credentialsError } from "./failure.ts";
import { type Env, NextSource, type ResolvedCredentials } from "./types.ts";

export function fromEnv(env: Env, source = "environment"): ResolvedCredentials {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) throw new NextSource(`${source}: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not both set`);
  const credentials: ResolvedCredentials = { accessKeyId, secretAccessKey };
  if (env.AWS_SESSION_TOKEN) credentials.sessionToken = env.AWS_SESSION_TOKEN;
  const expiry = env.AWS_CREDENTIAL_EXPIRATION;
  if (expiry) {
    const expiration = new Date(expiry);
    if (Number.isNaN(expiration.getTime())) throw credentialsError(source, "AWS_CREDENTIAL_EXPIRATION is not a date");
    credentials.expiration = expiration;
  }
  return credentials;
}
