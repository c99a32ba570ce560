// Deep equality of parsed TOML/JSON values, with Bun's native comparison:
// node:util costs ~2.5 MiB of a daemon's memory (issue 11) for this alone.

/** True when `a` and `b` are deeply and strictly equal (as util.isDeepStrictEqual, prototypes aside). */
export function sameValue(a: unknown, b: unknown): boolean {
  return Bun.deepEquals(a, b, true);
}
