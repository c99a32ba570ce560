// The QR encoder behind `crabtalk remote pair --qr` (src/cli/qr/): known
// vectors from the standard, and symbols read back by an independent reader
// (test/support/qr-decode.ts) over every version, both levels and every mask.
import { expect, test } from "bun:test";
import { encodeQr } from "../../src/cli/qr/encode.ts";
import { errorCorrection } from "../../src/cli/qr/reed-solomon.ts";
import { blockLayout, dataCodewords, formatBits, versionBits } from "../../src/cli/qr/tables.ts";
import { qrLines, QUIET_ZONE } from "../../src/cli/qr/terminal.ts";
import { decodeQr } from "../support/qr-decode.ts";

test("Reed–Solomon codewords match the worked example of a 1-M symbol", () => {
  // "HELLO WORLD" at 1-M: its 16 data codewords and their 10 error correction codewords.
  const data = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17];
  expect(errorCorrection(data, 10)).toEqual([196, 35, 39, 119, 235, 215, 231, 226, 93, 23]);
});

test("format and version information match the standard's tables", () => {
  const bin = (n: number, width: number) => n.toString(2).padStart(width, "0");
  expect([0, 1, 2, 3, 4, 5, 6, 7].map((m) => bin(formatBits("M", m), 15))).toEqual([
    "101010000010010",
    "101000100100101",
    "101111001111100",
    "101101101001011",
    "100010111111001",
    "100000011001110",
    "100111110010111",
    "100101010100000",
  ]);
  expect([0, 1, 2, 3, 4, 5, 6, 7].map((m) => bin(formatBits("L", m), 15))).toEqual([
    "111011111000100",
    "111001011110011",
    "111110110101010",
    "111100010011101",
    "110011000101111",
    "110001100011000",
    "110110001000001",
    "110100101110110",
  ]);
  expect([7, 8, 9, 10].map((v) => bin(versionBits(v), 18))).toEqual(["000111110010010100", "001000010110111100", "001001101010011001", "001010010011010011"]);
});

test("every version's blocks fill exactly the modules its function patterns leave", () => {
  for (let v = 1; v <= 10; v++) {
    const align = v === 1 ? 0 : Math.floor(v / 7) + 2;
    let modules = (16 * v + 128) * v + 64;
    if (v >= 2) modules -= (25 * align - 10) * align - 55;
    if (v >= 7) modules -= 36;
    for (const level of ["L", "M"] as const) {
      const { ecPerBlock, groups } = blockLayout(v, level);
      const blocks = groups.reduce((n, [count]) => n + count, 0);
      expect(dataCodewords(v, level) + blocks * ecPerBlock).toBe(Math.floor(modules / 8));
    }
  }
});

test("symbols of every version, both levels and all eight masks read back to their text", () => {
  const masks = new Set<number>();
  const versions = new Set<string>();
  for (const level of ["L", "M"] as const) {
    for (let length = 1; length <= (level === "M" ? 213 : 271); length += 3) {
      const text = Array.from({ length }, (_, i) => String.fromCharCode(33 + ((i * 7 + length * 13) % 94))).join("");
      const code = encodeQr(text, level);
      const read = decodeQr(code.modules);
      expect(read).toEqual({ text, version: code.version, level, mask: code.mask });
      masks.add(code.mask);
      versions.add(`${level}${code.version}`);
    }
  }
  expect([...masks].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  expect(versions.size).toBe(20);
});

test("a pairing link picks the smallest version, and non-ASCII text is UTF-8", () => {
  const link = "https://192.168.1.20:6690/#pair=Zk3v9QwLr8TnYp2XcHs5Mb7A";
  const code = encodeQr(link);
  expect(code.version).toBe(4);
  expect(decodeQr(code.modules).text).toBe(link);
  expect(decodeQr(encodeQr("crabtalk — 🦀").modules).text).toBe("crabtalk — 🦀");
});

test("text longer than version 10 holds is refused with its size", () => {
  expect(() => encodeQr("x".repeat(214))).toThrow("text of 214 bytes is too long for a QR code of version 10 at level M");
});

test("the terminal drawing holds the symbol two rows a line inside a quiet zone", () => {
  const code = encodeQr("https://127.0.0.1:6690/#pair=abc");
  const lines = qrLines(code, false);
  const span = code.size + 2 * QUIET_ZONE;
  expect(lines.length).toBe(Math.ceil(span / 2));
  expect(lines.every((l) => [...l].length === span && /^[ ▀▄█]+$/u.test(l))).toBe(true);
  const grid: boolean[][] = [];
  for (const line of lines) {
    const chars = [...line];
    grid.push(chars.map((c) => c === "▀" || c === "█"));
    grid.push(chars.map((c) => c === "▄" || c === "█"));
  }
  const inner = grid.slice(QUIET_ZONE, QUIET_ZONE + code.size).map((row) => row.slice(QUIET_ZONE, QUIET_ZONE + code.size));
  expect(decodeQr(inner).text).toBe("https://127.0.0.1:6690/#pair=abc");
  const outside = grid.flatMap((row, y) =>
    row.filter((_, x) => y < QUIET_ZONE || x < QUIET_ZONE || y >= QUIET_ZONE + code.size || x >= QUIET_ZONE + code.size),
  );
  expect(outside.some(Boolean)).toBe(false);
  expect(qrLines(code, true).every((l) => l.startsWith("\x1b[30;47m") && l.endsWith("\x1b[0m"))).toBe(true);
});
