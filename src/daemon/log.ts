// Structured log lines to stderr and logs/daemon.log, rotated by size.
// Field values whose key looks like a secret are never written.
import { appendFileSync, existsSync, renameSync, statSync, mkdirSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { LogFields, RuntimeLog } from "../base/runtime-log.ts";

export type { LogFields };
export type LogLevel = "debug" | "info" | "warn" | "error";

/** The daemon's logger; it is the runtime's `RuntimeLog` too (handed to the host once). */
export interface Logger extends RuntimeLog {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
const SECRET_KEY = /(api_?key|secret|token|password|access_?key|authorization)/i;
const ROTATE_BYTES = 5 * 1024 * 1024;
const KEEP_FILES = 3;

export interface LoggerOptions {
  file?: string;
  level?: LogLevel;
  stderr?: boolean;
  /** Size at which daemon.log is rotated (default 5 MiB). */
  rotateBytes?: number;
  /**
   * Lines of one event-loop turn are written together, after it (and at
   * exit): two writes per turn of the loop instead of an open, a write and a
   * close of the file and a write to stderr per line, at 100 concurrent runs.
   */
  batch?: boolean;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const min = ORDER[options.level ?? "info"];
  const file = options.file;
  let written = 0;
  if (file) {
    mkdirSync(dirname(file), { recursive: true });
    written = existsSync(file) ? statSync(file).size : 0;
  }
  const write = (text: string) => {
    if (options.stderr !== false) toStderr(text);
    if (!file) return;
    try {
      if (written + text.length > (options.rotateBytes ?? ROTATE_BYTES)) {
        rotate(file);
        written = 0;
      }
      appendFileSync(file, text);
      written += Buffer.byteLength(text);
    } catch {
      // A full disk must not take the daemon down; stderr still has the line.
    }
  };
  let pending = "";
  const flush = () => {
    const text = pending;
    pending = "";
    if (text) write(text);
  };
  if (options.batch) process.on("exit", flush);
  const emit = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (ORDER[level] < min) return;
    const line = formatLine(level, msg, fields);
    if (!options.batch) return write(line);
    if (pending === "") setImmediate(flush);
    pending += line;
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
  };
}

/**
 * Straight to fd 2: `process.stderr` would load Node's stream layer (about
 * 10 MiB and several ms at start) and cost more per line than the write.
 */
function toStderr(line: string): void {
  try {
    writeSync(2, line);
  } catch {
    // A closed or full stderr must not take the daemon down; the file still has the line.
  }
}

/**
 * `2026-11-22T10:00:00.000Z INFO listening socket=/x port=6688`. One event is
 * one line: control characters anywhere (a client's name holding a newline)
 * are escaped, so nothing a client sends can forge a line.
 */
export function formatLine(level: LogLevel, msg: string, fields?: LogFields): string {
  let line = `${new Date().toISOString()} ${level.toUpperCase()} ${escapeControls(msg)}`;
  for (const [key, value] of Object.entries(fields ?? {})) {
    line += ` ${escapeControls(key)}=${SECRET_KEY.test(key) ? "<redacted>" : quote(value)}`;
  }
  return line + "\n";
}

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
const CONTROLS = "\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029";
const CONTROL = new RegExp(`[${CONTROLS}]`, "g");
const HAS_CONTROL = new RegExp(`[${CONTROLS}]`);
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `a\nb` → `a\\nb`: every control character as a visible escape. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function quote(value: unknown): string {
  let text: string;
  if (typeof value === "string") text = value;
  else if (typeof value === "bigint") text = value.toString();
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  // JSON.stringify escapes C0 controls but not DEL, C1 or U+2028/9.
  return /[\s"=]/.test(text) || HAS_CONTROL.test(text) ? escapeControls(JSON.stringify(text)) : text;
}

/** daemon.log → daemon.log.1 → … → daemon.log.N (oldest dropped). */
function rotate(file: string): void {
  for (let i = KEEP_FILES - 1; i >= 1; i--) {
    if (existsSync(`${file}.${i}`)) renameSync(`${file}.${i}`, `${file}.${i + 1}`);
  }
  if (existsSync(file)) renameSync(file, `${file}.1`);
}
