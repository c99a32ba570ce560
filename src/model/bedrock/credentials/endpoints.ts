// Where the credential chain's AWS services are reached
// (docs/providers.md#bedrock--aws-bedrock): STS at
// https://sts.<region>.amazonaws.com, the SSO portal at
// https://portal.sso.<region>.amazonaws.com, unless the environment variables
// the SDK v3 honours say otherwise: AWS_ENDPOINT_URL_<SERVICE>, then
// AWS_ENDPOINT_URL, both ignored when AWS_IGNORE_CONFIGURED_ENDPOINT_URLS is
// true. (The config file's `endpoint_url` and `services` sections are not read.)
import { credentialsError, shown } from "./failure.ts";
import type { Env } from "./types.ts";

const REGION = /^[a-z0-9](?:[a-z0-9-]{0,62})$/;

export function serviceEndpoint(service: "STS" | "SSO", region: string, env: Env): string {
  const configured = env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS === "true" ? undefined : env[`AWS_ENDPOINT_URL_${service}`] || env.AWS_ENDPOINT_URL;
  if (configured) {
    let url: URL;
    try {
      url = new URL(configured);
    } catch {
      throw credentialsError(service, `the configured endpoint URL is not a URL`);
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") throw credentialsError(service, `the configured endpoint URL is not http(s)`);
    return configured.replace(/\/+$/, "");
  }
  if (!REGION.test(region)) throw credentialsError(service, `'${shown(region)}' is not a region name`);
  return service === "STS" ? `https://sts.${region}.amazonaws.com` : `https://portal.sso.${region}.amazonaws.com`;
}
