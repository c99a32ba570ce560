// The console's pairing links and the browser-side attacks it must withstand
// (docs/remote.md): a `#pair=` link logs a fresh browser in once, and only
// once, and not once 5 minutes have passed (on a daemon whose wall clock the
// test moves forward); a page of another origin in the same browser, after
// the owner logged in, can neither open /ws nor use the console's POST
// endpoints.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser } from "playwright-core";
import type { Client } from "../../src/protocol/client.ts";
import { launchChromium, pageUntil, visible } from "../support/browser.ts";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { shiftedClock } from "../support/shifted-clock.ts";
import { until } from "../support/until.ts";

setDefaultTimeout(90_000);

let daemon: TestDaemon;
let owner: Client;
let browser: Browser;
let base: string;

const REMOTE_ON = '[system.remote]\nenabled = true\nlisten = "127.0.0.1:0"\n';

async function pairingLink(name: string, by = owner): Promise<string> {
  return (await by.call({ case: "createPairing", value: { name, scope: "operate" } }, "pairingCreated")).url;
}

/** The listener's base URL (no trailing slash) once it serves. */
async function listenerBase(client: Client): Promise<string> {
  const status = await until(
    async () => {
      const s = await client.call({ case: "getRemoteStatus", value: {} }, "remoteStatus");
      return s.url ? s : undefined;
    },
    { what: "the remote listener's URL" },
  );
  return status.url.replace(/\/$/, "");
}

beforeAll(async () => {
  daemon = await startDaemon({ config: REMOTE_ON });
  owner = await daemon.client();
  base = await listenerBase(owner);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await owner?.close();
  await daemon?.stop();
  if (daemon) cleanup(daemon.home);
});

test("a pairing link logs a fresh browser in once, leaves no code in the address, and the same link later gets nothing", async () => {
  const link = await pairingLink("phone");
  expect(link).toContain("#pair=");
  const first = await browser.newContext();
  const second = await browser.newContext();
  try {
    const p = await first.newPage();
    await p.goto(link);
    await visible(p.getByText('This device is paired as "phone" (operate).'), "the pairing notice");
    await visible(p.getByRole("navigation", { name: "views" }), "the console after pairing");
    expect(p.url()).not.toContain("#pair=");
    expect(p.url()).not.toContain(link.split("#pair=")[1]);
    const tokens = (await owner.call({ case: "listTokens", value: {} }, "tokenList")).tokens;
    expect(tokens.map((t) => t.name)).toContain("phone");

    const again = await second.newPage();
    await again.goto(link);
    await visible(again.getByText("This pairing link was already used or has expired."), "the refusal of a used link");
    await visible(again.getByLabel("Token"), "the login form after a used link");
    expect(await again.getByRole("navigation", { name: "views" }).count()).toBe(0);
    expect(again.url()).not.toContain("#pair=");
  } finally {
    await first.close();
    await second.close();
  }
});

test("after Log out, a login check still on its way cannot replace the reason a later link is refused", async () => {
  const link = await pairingLink("slate");
  const context = await browser.newContext();
  try {
    const p = await context.newPage();
    await p.goto(link);
    await visible(p.getByText('This device is paired as "slate" (operate).'), "the pairing");
    // From the click on, "who am I" requests are held until the refusal below is shown.
    let parking = false;
    const parked: { release: () => Promise<void> }[] = [];
    await p.route("**/me", async (route) => {
      if (!parking) return route.continue();
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      parked.push({ release: async () => release() });
      await released;
      await route.continue();
    });
    const sockets: { closed: boolean }[] = [];
    p.on("websocket", (ws) => {
      const s = { closed: ws.isClosed() };
      sockets.push(s);
      ws.on("close", () => (s.closed = true));
    });
    parking = true;
    await p.getByRole("button", { name: "Log out" }).click();
    await visible(p.getByLabel("Token"), "the login form after logging out");
    await until(() => sockets.every((s) => s.closed), { what: "the console's live connection to close" });
    parking = false;
    await p.goto(link); // used already: refused
    const refusal = p.getByText("This pairing link was already used or has expired.");
    await visible(refusal, "the refusal of the used link");
    const waited = parked.map(() => p.waitForResponse((r) => r.url().endsWith("/me")));
    for (const held of parked) await held.release();
    await Promise.all(waited);
    await pageUntil(
      p,
      "two animation frames after the held answers",
      "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))",
    );
    expect(await refusal.count()).toBe(1);
    expect(await p.getByText("Your login ended").count()).toBe(0);
  } finally {
    await context.close();
  }
});

test("a pairing link still works 4 minutes on, and after 5 minutes gets nothing", async () => {
  const clock = shiftedClock();
  const late = await startDaemon({ config: REMOTE_ON, env: clock.env });
  const local = await late.client();
  const context = await browser.newContext();
  try {
    await listenerBase(local);
    const inTime = await pairingLink("tablet", local);
    const expired = await pairingLink("laptop", local);
    clock.shift(4 * 60);
    const p = await context.newPage();
    await p.goto(inTime);
    await visible(p.getByText('This device is paired as "tablet" (operate).'), "the pairing of a 4-minute-old link");
    await p.getByRole("button", { name: "Log out" }).click();
    await visible(p.getByLabel("Token"), "the login form after logging out");

    clock.shift(5 * 60 + 1);
    // Opened in the same tab: only the fragment changes, so the page pairs on `hashchange`, not on a load.
    await p.goto(expired);
    await visible(p.getByText("This pairing link was already used or has expired."), "the refusal of an expired link");
    await visible(p.getByLabel("Token"), "the login form after an expired link");
    expect(p.url()).not.toContain("#pair=");
    expect(await p.getByRole("navigation", { name: "views" }).count()).toBe(0);
    const tokens = (await local.call({ case: "listTokens", value: {} }, "tokenList")).tokens.map((t) => t.name);
    expect(tokens).toContain("tablet");
    expect(tokens).not.toContain("laptop");
  } finally {
    await context.close();
    await local.close();
    await late.stop();
    cleanup(late.home);
    clock.dispose();
  }
});

test("a page of another origin, in the owner's logged-in browser, gets nothing from /ws or the POST endpoints", async () => {
  const token = (await owner.call({ case: "createToken", value: { name: "owner-browser", scope: "admin" } }, "tokenCreated")).token;
  const wsUrl = `${base.replace(/^http/, "ws")}/ws`;
  // The attacker's page: another port of 127.0.0.1 is another origin (though the same site, so cookies ride along).
  const attacker = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () =>
      new Response(
        `<!doctype html><title>evil</title><script>
window.outcome = { ws: "pending", login: "pending", logout: "pending" };
const ws = new WebSocket(${JSON.stringify(wsUrl)});
ws.binaryType = "arraybuffer";
ws.onopen = () => { window.outcome.ws = "opened"; };
ws.onmessage = () => { window.outcome.ws = "answered"; };
ws.onclose = (e) => { if (window.outcome.ws === "pending") window.outcome.ws = "refused " + e.code; };
fetch(${JSON.stringify(`${base}/login`)}, { method: "POST", credentials: "include", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: ${JSON.stringify(token)} }) })
  .then((r) => { window.outcome.login = "read " + r.status; }, () => { window.outcome.login = "failed"; });
fetch(${JSON.stringify(`${base}/logout`)}, { method: "POST", credentials: "include", mode: "no-cors" })
  .then(() => { window.outcome.logout = "sent"; }, () => { window.outcome.logout = "failed"; });
</script>`,
        { headers: { "content-type": "text/html" } },
      ),
  });
  const context = await browser.newContext();
  try {
    const ownerPage = await context.newPage();
    await ownerPage.goto(base);
    await ownerPage.getByLabel("Token").fill(token);
    await ownerPage.getByRole("button", { name: "Log in" }).click();
    await visible(ownerPage.getByRole("navigation", { name: "views" }), "the owner logged in");
    await visible(ownerPage.getByText("● live"), "the owner's own /ws connection");

    const evil = await context.newPage();
    await evil.goto(`http://127.0.0.1:${attacker.port}/`);
    await pageUntil(evil, "the foreign page's attempts to finish", 'window.outcome && !Object.values(window.outcome).includes("pending")');
    const outcome = (await evil.evaluate("window.outcome")) as { ws: string; login: string; logout: string };
    expect(outcome.ws).toStartWith("refused");
    // No CORS answer lets the page read a reply; a refused Origin makes it fail outright.
    expect(outcome.login).toBe("failed");

    // The owner is still logged in: the foreign POST /logout did nothing.
    await ownerPage.reload();
    await visible(ownerPage.getByRole("navigation", { name: "views" }), "the owner still logged in after the foreign page");
  } finally {
    await context.close();
    attacker.stop(true);
  }
});

test("the console refuses to run inside another page's frame", async () => {
  // The attacker's page frames the console (same site: the owner's cookie would ride along).
  const framer = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () =>
      new Response(`<!doctype html><title>framer</title><iframe src=${JSON.stringify(`${base}/`)} width=800 height=600></iframe>`, {
        headers: { "content-type": "text/html" },
      }),
  });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${framer.port}/`);
    const frame = await until(async () => page.frames().find((f) => f.url().startsWith(base)), { what: "the console's frame" });
    await visible(frame.getByText("does not run inside another page"), "the console's refusal inside the frame");
    expect(await frame.getByRole("button").count()).toBe(0);
    expect(await frame.getByLabel("Token").count()).toBe(0);
  } finally {
    await context.close();
    framer.stop(true);
  }
});
