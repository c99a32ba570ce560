// `tls = "self-signed"` (docs/remote.md#tls): an EC P-256 key and a
// certificate made once under <home>/remote/ (0600), built here with
// node:crypto alone (Bun cannot make certificates and openssl may be absent).
// The certificate names 127.0.0.1, ::1, localhost and the listen host; a
// client pins its SHA-256 fingerprint. It is made again only when it no longer
// names the listen host or has expired.
import { chmodSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomicSync } from "../base/atomic-file.ts";
import { isIpLiteral } from "../base/listen-address.ts";
import { randomBytes } from "../base/random-bytes.ts";
import { bitString, boolean, explicit, integer, octetString, oid, sequence, set, time, tlv, utf8String, concat } from "./der.ts";

const ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
const VALID_DAYS = 3650;

export interface Certificate {
  cert: string;
  key: string;
  fingerprint: string;
}

/** The PEM pair under `dir`, made (or made again) when missing or not naming `hosts`. */
export function selfSignedCertificate(dir: string, hosts: string[], now = new Date()): Certificate {
  const certPath = join(dir, "tls-cert.pem");
  const keyPath = join(dir, "tls-key.pem");
  const wanted = [...new Set(["127.0.0.1", "::1", "localhost", ...hosts.map((h) => h.toLowerCase())])];
  if (existsSync(certPath) && existsSync(keyPath)) {
    const cert = readFileSync(certPath, "utf8");
    if (covers(cert, wanted, now)) return { cert, key: readFileSync(keyPath, "utf8"), fingerprint: fingerprintOf(cert) };
  }
  const made = makeCertificate(wanted, now);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  writeFileAtomicSync(keyPath, made.key, { mode: 0o600 });
  writeFileAtomicSync(certPath, made.cert, { mode: 0o600 });
  return made;
}

/** SHA-256 of the first certificate's DER, "AB:CD:…". */
export function fingerprintOf(pem: string): string {
  const hex = new Bun.CryptoHasher("sha256").update(pemBody(pem, "CERTIFICATE")).digest("hex").toUpperCase();
  return hex.match(/../g)?.join(":") ?? "";
}

function pemBody(pem: string, label: string): Uint8Array {
  const match = new RegExp(`-----BEGIN ${label}-----([^-]+)-----END ${label}-----`).exec(pem);
  if (!match) throw new Error(`no ${label} in the PEM text`);
  return Buffer.from(match[1].replace(/\s+/g, ""), "base64");
}

function toPem(der: Uint8Array, label: string): string {
  const b64 =
    Buffer.from(der)
      .toString("base64")
      .match(/.{1,64}/g)
      ?.join("\n") ?? "";
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

function covers(pem: string, hosts: string[], now: Date): boolean {
  try {
    const { X509Certificate } = require("node:crypto") as typeof import("node:crypto");
    const x = new X509Certificate(pem);
    if (new Date(x.validTo).getTime() < now.getTime() + 24 * 3600_000) return false;
    const names = (x.subjectAltName ?? "").split(", ").map((s) => s.replace(/^(DNS:|IP Address:)/, "").toLowerCase());
    return hosts.every((h) => names.includes(h) || names.includes(normaliseIp(h)));
  } catch {
    return false;
  }
}

export function makeCertificate(hosts: string[], now = new Date()): Certificate {
  const { generateKeyPairSync, sign } = require("node:crypto") as typeof import("node:crypto");
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const serial = randomBytes(16);
  serial[0] &= 0x7f;
  serial[0] |= 0x01;
  const name = sequence(set(sequence(oid("2.5.4.3"), utf8String("crabtalk remote listener"))));
  const algorithm = sequence(oid(ECDSA_WITH_SHA256));
  const notBefore = new Date(now.getTime() - 24 * 3600_000);
  const notAfter = new Date(now.getTime() + VALID_DAYS * 24 * 3600_000);
  const altNames = sequence(...hosts.map((h) => (isIpLiteral(h) ? tlv(0x87, ipBytes(h)) : tlv(0x82, new TextEncoder().encode(h)))));
  const extensions = explicit(
    3,
    sequence(
      sequence(oid("2.5.29.17"), octetString(altNames)),
      sequence(oid("2.5.29.19"), boolean(true), octetString(sequence())),
      sequence(oid("2.5.29.37"), octetString(sequence(oid("1.3.6.1.5.5.7.3.1")))),
    ),
  );
  const tbs = sequence(
    explicit(0, integer(new Uint8Array([2]))),
    integer(serial),
    algorithm,
    name,
    sequence(time(notBefore), time(notAfter)),
    name,
    new Uint8Array(publicKey.export({ type: "spki", format: "der" })),
    extensions,
  );
  const signature = sign("sha256", tbs, privateKey);
  const der = sequence(tbs, algorithm, bitString(new Uint8Array(signature)));
  const cert = toPem(der, "CERTIFICATE");
  const key = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  return { cert, key, fingerprint: fingerprintOf(cert) };
}

/** The 4 or 16 bytes of an IP literal. */
export function ipBytes(ip: string): Uint8Array {
  if (!ip.includes(":")) return new Uint8Array(ip.split(".").map(Number));
  const [head, tail] = ip.includes("::") ? ip.split("::") : [ip, undefined];
  const groups = (s: string | undefined) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  const all = tail === undefined ? left : [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  return concat(all.map((g) => new Uint8Array([g >> 8, g & 0xff])));
}

/** How node:crypto prints an IPv6 SAN: full groups, no leading zeros ("0:0:0:0:0:0:0:1"). */
function normaliseIp(ip: string): string {
  if (!ip.includes(":")) return ip;
  const b = ipBytes(ip);
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((b[i] << 8) | b[i + 1]).toString(16).toUpperCase());
  return groups.join(":").toLowerCase();
}
