// Where each key's value stands in a TOML text: the full dotted path of every
// assignment (table headers and dotted keys resolved) with the character span
// of its value, multi-line arrays and strings included. Lets an edit replace
// exactly one value and keep every comment and the layout around it.
import { stringify } from "smol-toml";

interface Assignment {
  /** Full key path: header path + dotted key. */
  path: string[];
  /** Start of the line the key is on, and of the key itself. */
  lineStart: number;
  keyStart: number;
  /** The value's span [valueStart, valueEnd). */
  valueStart: number;
  valueEnd: number;
}

interface Header {
  path: string[];
  /** `[[x]]`: keys under it are not addressable by path. */
  array: boolean;
  /** Index just after the header line's newline. */
  bodyStart: number;
}

export interface Layout {
  assignments: Assignment[];
  headers: Header[];
}

class Scan {
  pos = 0;
  constructor(readonly text: string) {}

  fail(): never {
    throw new Error(`unexpected TOML at ${this.pos}`);
  }
  peek(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }
  /** Spaces and tabs. */
  blanks(): void {
    while (this.pos < this.text.length && (this.text[this.pos] === " " || this.text[this.pos] === "\t")) this.pos++;
  }
  /** Blanks, newlines and comments (inside arrays). */
  gaps(): void {
    for (;;) {
      this.blanks();
      const c = this.text[this.pos];
      if (c === "\n" || c === "\r") this.pos++;
      else if (c === "#") this.lineEnd();
      else return;
    }
  }
  /** To the end of the line (not past its newline). */
  lineEnd(): void {
    while (this.pos < this.text.length && this.text[this.pos] !== "\n") this.pos++;
  }

  key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.blanks();
      parts.push(this.simpleKey());
      this.blanks();
      if (!this.peek(".")) return parts;
      this.pos++;
    }
  }
  simpleKey(): string {
    const start = this.pos;
    if (this.peek('"')) {
      this.basicString();
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    }
    if (this.peek("'")) {
      const end = this.text.indexOf("'", this.pos + 1);
      if (end < 0) this.fail();
      this.pos = end + 1;
      return this.text.slice(start + 1, end);
    }
    while (this.pos < this.text.length && /[A-Za-z0-9_-]/.test(this.text[this.pos]!)) this.pos++;
    if (this.pos === start) this.fail();
    return this.text.slice(start, this.pos);
  }
  basicString(): void {
    this.pos++;
    while (this.pos < this.text.length && this.text[this.pos] !== '"') {
      if (this.text[this.pos] === "\n") this.fail();
      this.pos += this.text[this.pos] === "\\" ? 2 : 1;
    }
    if (this.pos >= this.text.length) this.fail();
    this.pos++;
  }
  value(): void {
    const t = this.text;
    if (this.peek('"""') || this.peek("'''")) {
      const q = t.slice(this.pos, this.pos + 3);
      let i = this.pos + 3;
      for (;;) {
        const end = t.indexOf(q, i);
        if (end < 0) this.fail();
        if (q === '"""' && isEscaped(t, end)) {
          i = end + 1;
          continue;
        }
        // Up to two quotes may end the content right before the closing three.
        let close = end + 3;
        while (close < t.length && t[close] === q[0] && close < end + 5) close++;
        this.pos = close;
        return;
      }
    }
    if (this.peek('"')) return this.basicString();
    if (this.peek("'")) {
      const end = t.indexOf("'", this.pos + 1);
      if (end < 0 || t.slice(this.pos, end).includes("\n")) this.fail();
      this.pos = end + 1;
      return;
    }
    if (this.peek("[")) {
      this.pos++;
      for (;;) {
        this.gaps();
        if (this.peek("]")) break;
        this.value();
        this.gaps();
        if (this.peek(",")) this.pos++;
        else if (!this.peek("]")) this.fail();
      }
      this.pos++;
      return;
    }
    if (this.peek("{")) {
      this.pos++;
      for (;;) {
        this.blanks();
        if (this.peek("}")) break;
        this.key();
        if (!this.peek("=")) this.fail();
        this.pos++;
        this.blanks();
        this.value();
        this.blanks();
        if (this.peek(",")) this.pos++;
        else if (!this.peek("}")) this.fail();
      }
      this.pos++;
      return;
    }
    // Numbers, booleans, dates: up to a delimiter (a date's " " before its time is allowed).
    const start = this.pos;
    const m = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:/.exec(t.slice(start, start + 14));
    if (m) this.pos += m[0].length;
    while (this.pos < t.length && !/[\s,\]}#]/.test(t[this.pos]!)) this.pos++;
    if (this.pos === start) this.fail();
  }
}

function isEscaped(text: string, at: number): boolean {
  let n = 0;
  for (let i = at - 1; i >= 0 && text[i] === "\\"; i--) n++;
  return n % 2 === 1;
}

/** The layout of a TOML text; throws on text it cannot follow (callers then re-serialise). */
export function scanToml(text: string): Layout {
  const s = new Scan(text);
  const assignments: Assignment[] = [];
  const headers: Header[] = [];
  let table: string[] | undefined = [];
  while (s.pos < text.length) {
    const lineStart = s.pos;
    s.blanks();
    const c = text[s.pos];
    if (c === "\n" || c === "\r" || c === "#" || c === undefined) {
      s.lineEnd();
      s.pos++;
      continue;
    }
    if (c === "[") {
      const array = s.peek("[[");
      s.pos += array ? 2 : 1;
      const path = s.key();
      if (!s.peek(array ? "]]" : "]")) s.fail();
      s.pos += array ? 2 : 1;
      s.lineEnd();
      s.pos++;
      headers.push({ path, array, bodyStart: Math.min(s.pos, text.length) });
      table = array ? undefined : path;
      continue;
    }
    const keyStart = s.pos;
    const key = s.key();
    if (!s.peek("=")) s.fail();
    s.pos++;
    s.blanks();
    const valueStart = s.pos;
    s.value();
    if (table) assignments.push({ path: [...table, ...key], lineStart, keyStart, valueStart, valueEnd: s.pos });
    s.blanks();
    if (s.peek("#")) s.lineEnd();
    else if (s.pos < text.length && text[s.pos] !== "\n" && text[s.pos] !== "\r") s.fail();
    s.lineEnd();
    s.pos++;
  }
  return { assignments, headers };
}

const BARE = /^[A-Za-z0-9_-]+$/;

/** A key as TOML writes it. */
export function tomlKey(key: string): string {
  return BARE.test(key) ? key : JSON.stringify(key);
}

/** A value on one line: tables as inline tables, for an edit in place. */
export function inlineValue(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? "[]" : `[ ${value.map(inlineValue).join(", ")} ]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    return entries.length === 0 ? "{}" : `{ ${entries.map(([k, v]) => `${tomlKey(k)} = ${inlineValue(v)}`).join(", ")} }`;
  }
  return stringify({ v: value }).trim().replace(/^v = /, "");
}
