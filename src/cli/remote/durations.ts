// `tokens create --expires 30d`: a lifetime in seconds for CreateToken
// (docs/protocol.md#remote-access; 0 = never).

const UNIT_SECS = { m: 60, h: 3600, d: 86_400, w: 604_800, y: 31_536_000 } as const;
const MAX_SECS = 10 * UNIT_SECS.y;

/** `90m`, `12h`, `30d`, `2w`, `1y` → seconds; `never` → 0. Throws with the forms it takes. */
export function parseExpires(text: string): bigint {
  const word = text.trim().toLowerCase();
  if (word === "never") return 0n;
  const m = /^(\d{1,6})([mhdwy])$/.exec(word);
  const secs = m ? Number(m[1]) * UNIT_SECS[m[2] as keyof typeof UNIT_SECS] : NaN;
  if (!(secs > 0)) throw new Error(`--expires takes a lifetime such as 90m, 12h, 30d, 2w or 1y (or never), not '${text}'`);
  if (secs > MAX_SECS) throw new Error(`--expires '${text}' is longer than 10 years; use never for a token that does not expire`);
  return BigInt(secs);
}
