// The environment of code a package brings (setup scripts, cargo and bun
// installs): the daemon's own, minus anything that looks like a credential —
// a package's script must not see the user's API keys, and its output is
// streamed to clients.
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH/i;

export function scriptEnv(env: Record<string, string | undefined>, extra: Record<string, string> = {}): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) if (!SECRET_NAME.test(k)) out[k] = v;
  return { ...out, ...extra };
}
