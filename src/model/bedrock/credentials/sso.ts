// IAM Identity Center (SSO) profiles (docs/providers.md#bedrock--aws-bedrock),
// as the SDK's fromSSO resolves them: a profile with sso_account_id and
// sso_role_name, and either sso_session naming an `[sso-session x]` section
// (with sso_start_url and sso_region) or, the legacy form, sso_start_url and
// sso_region itself. The token `aws sso login` cached in
// ~/.aws/sso/cache/<sha1 of the session name, or of the start URL>.json is
// sent to the SSO portal's GetRoleCredentials. An expired token is an error
// saying to log in again; refreshing it through SSO OIDC is not done.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { serviceEndpoint } from "./endpoints.ts";
import { credentialsError, shown } from "./failure.ts";
import { homeDir, KIB, readBounded, shownPath } from "./files.ts";
import { exchange, parseJson } from "./http.ts";
import type { Section, SharedFiles } from "./ini.ts";
import type { Context, ResolvedCredentials } from "./types.ts";

const TIMEOUT_MS = 10_000;
const MAX_TOKEN_FILE_BYTES = 64 * KIB;

export function isSsoProfile(p: Section): boolean {
  return ["sso_start_url", "sso_account_id", "sso_session", "sso_region", "sso_role_name"].some((k) => typeof p[k] === "string");
}

export async function fromSso(ctx: Context, files: SharedFiles, name: string, profile: Section, what: string): Promise<ResolvedCredentials> {
  const login = `run 'aws sso login --profile ${name}'`;
  let startUrl = profile.sso_start_url;
  let ssoRegion = profile.sso_region;
  const sessionName = profile.sso_session;
  if (sessionName !== undefined) {
    const session = files.ssoSessions.get(sessionName);
    if (!session) throw credentialsError(what, `sso-session '${shown(sessionName, 80)}' is not in ${shownPath(files.configPath, ctx.env)}`);
    for (const key of ["sso_start_url", "sso_region"]) {
      if (!session[key]) throw credentialsError(what, `sso-session '${shown(sessionName, 80)}' has no ${key}`);
    }
    startUrl = session.sso_start_url;
    ssoRegion = session.sso_region;
  }
  const missing = (
    [
      ["sso_account_id", profile.sso_account_id],
      ["sso_region", ssoRegion],
      ["sso_role_name", profile.sso_role_name],
      ["sso_start_url", startUrl],
    ] as const
  )
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length > 0) throw credentialsError(what, `an SSO profile needs ${missing.join(", ")}`);

  const cacheKey = sessionName ?? startUrl!;
  const tokenPath = join(homeDir(ctx.env), ".aws", "sso", "cache", `${createHash("sha1").update(cacheKey).digest("hex")}.json`);
  const tokenFile = shownPath(tokenPath, ctx.env);
  const text = await readBounded(tokenPath, MAX_TOKEN_FILE_BYTES, `${what}: SSO token cache ${tokenFile}`);
  if (text === undefined) throw credentialsError(what, `no cached SSO token (${tokenFile}); ${login}`);
  let token: { accessToken?: unknown; expiresAt?: unknown };
  try {
    token = JSON.parse(text) as typeof token;
  } catch {
    throw credentialsError(what, `the cached SSO token ${tokenFile} is not JSON; ${login}`);
  }
  if (typeof token !== "object" || token === null || typeof token.accessToken !== "string" || token.accessToken === "" || typeof token.expiresAt !== "string") {
    throw credentialsError(what, `the cached SSO token ${tokenFile} has no accessToken and expiresAt; ${login}`);
  }
  const expiresAt = new Date(token.expiresAt);
  if (Number.isNaN(expiresAt.getTime())) throw credentialsError(what, `the cached SSO token ${tokenFile} has an expiresAt that is not a date; ${login}`);
  if (expiresAt.getTime() <= Date.now()) throw credentialsError(what, `the SSO session has expired; ${login}`);

  const query = new URLSearchParams({ account_id: profile.sso_account_id!, role_name: profile.sso_role_name! });
  const url = `${serviceEndpoint("SSO", ssoRegion!, ctx.env)}/federation/credentials?${query}`;
  const answer = await exchange({ url, headers: { "x-amz-sso_bearer_token": token.accessToken }, timeoutMs: TIMEOUT_MS, signal: ctx.signal, what });
  if (answer.status !== 200) {
    const hint = answer.status === 401 || answer.status === 403 ? `; ${login}` : "";
    throw credentialsError(what, `the SSO portal refused GetRoleCredentials (HTTP ${answer.status}${errorMessage(answer.text, answer.headers)})${hint}`, {
      transient: answer.status >= 500 || answer.status === 429,
    });
  }
  const data = parseJson(answer.text, what) as { roleCredentials?: Record<string, unknown> } | null;
  const role =
    typeof data === "object" && data !== null && typeof data.roleCredentials === "object" && data.roleCredentials !== null ? data.roleCredentials : {};
  const { accessKeyId, secretAccessKey, sessionToken, expiration } = role;
  if (
    typeof accessKeyId !== "string" ||
    accessKeyId === "" ||
    typeof secretAccessKey !== "string" ||
    secretAccessKey === "" ||
    typeof sessionToken !== "string" ||
    sessionToken === "" ||
    typeof expiration !== "number" ||
    !Number.isFinite(expiration)
  ) {
    throw credentialsError(what, "the SSO portal answered without accessKeyId, secretAccessKey, sessionToken and expiration");
  }
  return { accessKeyId, secretAccessKey, sessionToken, expiration: new Date(expiration) };
}

function errorMessage(text: string, headers: Headers): string {
  const type = headers.get("x-amzn-errortype")?.split(":")[0];
  let message: unknown;
  try {
    const body = JSON.parse(text) as { message?: unknown; Message?: unknown };
    message = body.message ?? body.Message;
  } catch {
    message = undefined;
  }
  const parts = [type, typeof message === "string" ? message : undefined].filter((p): p is string => Boolean(p));
  return parts.length > 0 ? ` ${shown(parts.join(": "))}` : "";
}
