// Terminal styling: ANSI colours only on a TTY and only when NO_COLOR is unset
// or empty (https://no-color.org).
export interface Style {
  readonly color: boolean;
  dim(s: string): string;
  bold(s: string): string;
  red(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
  yellow(s: string): string;
}

export function colorWanted(stream: { isTTY?: boolean }, env = process.env): boolean {
  return Boolean(stream.isTTY) && !env.NO_COLOR;
}

export function styleFor(stream: { isTTY?: boolean }, env = process.env): Style {
  const on = colorWanted(stream, env);
  const wrap = (open: number, close: number) => (s: string) => (on && s ? `\x1b[${open}m${s}\x1b[${close}m` : s);
  return {
    color: on,
    dim: wrap(2, 22),
    bold: wrap(1, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    cyan: wrap(36, 39),
    yellow: wrap(33, 39),
  };
}
