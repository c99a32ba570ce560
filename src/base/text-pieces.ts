// A long streamed text kept as the pieces it arrived in. The agent loop
// builds an answer by concatenation, which the engine keeps as a rope of
// those pieces; the first use that needs it flat (a slice, an escape) copies
// all of it while the pieces are still held, by the rope and by the frames
// not yet sent: twice the answer at once (issue 23). Whoever only needs to
// walk the text (the session file writer, the title's excerpt) asks for its
// pieces instead, and the rope stays as it is.

/** Texts shorter than this are cheap to flatten: no pieces are kept for them. */
export const PIECES_MIN_LENGTH = 64 * 1024;

type Field = "content" | "reasoning";
type Registered = Partial<Record<Field, { text: string; pieces: readonly string[] }>>;

const registry = new WeakMap<object, Registered>();

/** Records that `message[field]` is the concatenation of `pieces`. */
export function keepPieces<M extends object>(message: M, field: Field, text: string, pieces: readonly string[]): M {
  if (text.length < PIECES_MIN_LENGTH) return message;
  const entry = registry.get(message) ?? {};
  entry[field] = { text, pieces };
  registry.set(message, entry);
  return message;
}

/**
 * The pieces of `text`, the value of `message[field]`: those recorded for it,
 * or the text itself. The recorded ones are used only while the field still
 * holds the very string they were recorded for (an identity check, which
 * does not flatten it).
 */
export function piecesOf(message: object, field: Field, text: string): readonly string[] {
  const kept = registry.get(message)?.[field];
  return kept && kept.text === text ? kept.pieces : [text];
}

/** The first `length` UTF-16 units of `message[field]` (all of it when shorter), without flattening the rest. */
export function prefixOf(message: object, field: Field, text: string, length: number): string {
  if (text.length <= length) return text;
  let head = "";
  for (const piece of piecesOf(message, field, text)) {
    head += piece.length > length - head.length ? piece.slice(0, length - head.length) : piece;
    if (head.length >= length) break;
  }
  return head;
}
