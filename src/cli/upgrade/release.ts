// Where `crabtalk upgrade` finds a release and how it checks it: the same
// rules as install.sh (docs/install.md), so both pick the same file from the
// same place and accept it only when it matches the release's SHA256SUMS.
import { rmSync } from "node:fs";

const DEFAULT_RELEASES_URL = "https://github.com/crabtalk/crabtalk/releases";

type Env = Record<string, string | undefined>;

/** The directory URL holding the assets and SHA256SUMS: CRABTALK_DOWNLOAD_URL, else the release's (or latest) download URL. */
export function releaseBaseUrl(env: Env, version: string | undefined): string {
  if (env.CRABTALK_DOWNLOAD_URL) return env.CRABTALK_DOWNLOAD_URL.replace(/\/+$/, "");
  const releases = (env.CRABTALK_RELEASES_URL || DEFAULT_RELEASES_URL).replace(/\/+$/, "");
  return version ? `${releases}/download/v${version}` : `${releases}/latest/download`;
}

/** The SHA-256 that SHA256SUMS lists for `asset` (`<hex>  name` or `<hex> *name`), if any. */
export function expectedSum(sums: string, asset: string): string | undefined {
  for (const line of sums.split("\n")) {
    const [hex, name] = line.trim().split(/\s+/);
    if (hex && (name === asset || name === `*${asset}`)) return hex.toLowerCase();
  }
  return undefined;
}

async function get(url: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { redirect: "follow" });
  } catch (err) {
    throw new Error(`could not download ${url} (${(err as Error).message}): check your connection`);
  }
  if (!res.ok) throw new Error(`could not download ${url} (HTTP ${res.status})`);
  return res;
}

export async function fetchSums(baseUrl: string, release: string): Promise<string> {
  try {
    return await (await get(`${baseUrl}/SHA256SUMS`)).text();
  } catch (err) {
    throw new Error(`${(err as Error).message}: check that ${release} exists`);
  }
}

/** Streams `url` into `file`; a failure removes what was written. */
export async function downloadTo(url: string, file: string): Promise<void> {
  try {
    await Bun.write(file, await get(url));
  } catch (err) {
    rmSync(file, { force: true });
    throw err;
  }
}

export async function sha256File(file: string): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of Bun.file(file).stream()) hasher.update(chunk);
  return hasher.digest("hex");
}
