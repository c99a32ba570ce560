// The console's few HTTP calls to the listener (docs/remote.md, "The HTTP
// surface"): log in with a token or a pairing code, ask who we are, log out.
// The cookie they set is HttpOnly: this code never sees it, nor keeps a token.

export type Scope = "read" | "operate" | "admin";

export interface Me {
  name: string;
  scope: Scope;
}

async function post(path: string, body?: unknown): Promise<Response> {
  return fetch(path, {
    method: "POST",
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
}

/** Who the cookie is bound to, or undefined when there is no valid one (401). */
export async function whoAmI(): Promise<Me | undefined> {
  const response = await fetch("/me", { credentials: "same-origin" });
  if (response.status === 401) return undefined;
  if (!response.ok) throw new Error(`GET /me: ${response.status}`);
  return (await response.json()) as Me;
}

/** Logs in with a token; the reason when refused. */
export async function logIn(token: string): Promise<string | undefined> {
  const response = await post("/login", { token });
  if (response.ok) return undefined;
  if (response.status === 401) return "That token was refused: wrong, revoked or expired.";
  if (response.status === 429) return "Too many failed logins from here: wait a moment and try again.";
  return `Login failed (${response.status}).`;
}

export async function logOut(): Promise<void> {
  await post("/logout");
}

/** The pairing code of a `#pair=CODE` link, if this page was opened with one. */
export function pairingCode(hash: string): string | undefined {
  const match = /^#pair=([^&]+)/.exec(hash);
  return match ? decodeURIComponent(match[1]) : undefined;
}

/** Exchanges a pairing code for this device's own token (set as the cookie); the reason when refused. */
export async function pair(code: string): Promise<{ me: Me } | { error: string }> {
  const response = await post("/pair", { code });
  if (response.ok) {
    // The token in the answer is not kept: the cookie is what logs this browser in.
    const { name, scope } = (await response.json()) as Me & { token: string };
    return { me: { name, scope } };
  }
  if (response.status === 401) return { error: "This pairing link was already used or has expired. Ask for a new one (crabtalk remote pair)." };
  return { error: `Pairing failed (${response.status}).` };
}
