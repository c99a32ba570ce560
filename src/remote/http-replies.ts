// Plain answers of the remote listener: short text or JSON, never cached, never
// embedded in another site's frame.

const COMMON = { "cache-control": "no-store", "x-content-type-options": "nosniff", "x-frame-options": "DENY" };

export function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(`${body}\n`, { status, headers: { ...COMMON, "content-type": "text/plain; charset=utf-8", ...headers } });
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...COMMON, "content-type": "application/json", ...headers } });
}

export function empty(status: number, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers: { ...COMMON, ...headers } });
}

/** Most bytes read of a /login or /pair body. */
export const MAX_BODY_BYTES = 4096;

/** `{ [field]: string }` from a small JSON body; undefined when it is not that. */
export async function readField(req: Request, field: string): Promise<string | undefined> {
  const length = Number(req.headers.get("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) return undefined;
  const body = await req.arrayBuffer().catch(() => undefined);
  if (!body || body.byteLength > MAX_BODY_BYTES) return undefined;
  try {
    const value = (JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>)[field];
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}
