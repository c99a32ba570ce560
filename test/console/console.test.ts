// The web console (docs/remote.md, "The web console") in real headless
// Chromium against a real daemon with the remote listener on and a fake
// provider: log in with a token, see the conversations, chat with a streamed
// answer, answer an approval, read the tool calls back in the history, cancel
// a stalled run, watch a CLI run live, and what a read token and a
// phone-width screen get. Screenshots of the main views are written under the
// test's temporary directory.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Client } from "../../src/protocol/client.ts";
import { launchChromium, pageUntil, visible } from "../support/browser.ts";
import { runCli } from "../support/cli.ts";
import { cleanup } from "../support/daemon.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";
import { until } from "../support/until.ts";

setDefaultTimeout(90_000);

const SHOTS = mkdtempSync(join(tmpdir(), "crabtalk-console-shots-"));

let env: LlmDaemon;
let owner: Client;
let browser: Browser;
let base: string;
let operateToken: string;
let readToken: string;
let context: BrowserContext;
let page: Page;

async function createToken(name: string, scope: string): Promise<string> {
  return (await owner.call({ case: "createToken", value: { name, scope } }, "tokenCreated")).token;
}

/** The whole page, shot in a viewport as tall as it: the sticky composer then sits in its place, not over the last answer. */
async function shot(p: Page, name: string): Promise<void> {
  const size = p.viewportSize();
  const height = Number(await p.evaluate("document.documentElement.scrollHeight"));
  if (size && height > size.height) await p.setViewportSize({ width: size.width, height });
  await p.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  if (size) await p.setViewportSize(size);
}

/**
 * Waits until no chat turn is running. The chat runs one message at a time
 * (one sent during a run stays in the box), so a test that sends next waits
 * for the run before it to end, not only for its last words.
 */
async function chatIdle(p: Page, what: string): Promise<void> {
  await pageUntil(p, what, `document.querySelectorAll(".turn").length > 0 && document.querySelector(".turn.running") === null`);
}

function nav(p: Page, view: string) {
  return p.getByRole("navigation", { name: "views" }).getByRole("button", { name: view });
}

/** Logs `p` in with `token` through the login form, by keyboard alone. */
async function logIn(p: Page, token: string): Promise<void> {
  await p.goto(base);
  await visible(p.getByLabel("Token"), "the login form");
  await p.keyboard.press("Tab");
  expect(await p.evaluate("document.activeElement && document.activeElement.id")).toBe("token");
  await p.keyboard.type(token);
  await p.keyboard.press("Enter");
  await visible(p.getByRole("navigation", { name: "views" }), "the console after logging in");
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  env = await startLlmDaemon("openai", {
    extraConfig: 'approve = ["bash"]\n\n[system.tools]\nsandbox = "off"\n\n[system.remote]\nenabled = true\nlisten = "127.0.0.1:0"\n',
    providerConfig: 'prices = { "fake-model" = { input = 2.5, output = 10 } }',
  });
  owner = await env.daemon.client();
  const status = await until(
    async () => {
      const s = await owner.call({ case: "getRemoteStatus", value: {} }, "remoteStatus");
      return s.url ? s : undefined;
    },
    { what: "the remote listener's URL" },
  );
  base = status.url.replace(/\/$/, "");
  operateToken = await createToken("laptop", "operate");
  readToken = await createToken("viewer", "read");
  // An existing conversation, with a title, before any browser looks.
  env.fake.script({ text: "Plant the tomatoes in May.", usage: { prompt: 120_000, completion: 8_000 } });
  await owner.send({ agent: "crab", content: "when do I plant tomatoes?", sender: "cli" });
  await until(async () => (await owner.listConversations()).find((c) => c.sender === "cli"), { what: "the seeded conversation's file" });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await owner?.close();
  await env?.stop();
  if (env) cleanup(env.daemon.home);
  console.log(`console screenshots: ${SHOTS}`);
});

test("a token logs in, and the existing conversation is listed; its history opens", async () => {
  await logIn(page, operateToken);
  await visible(page.getByText("agent crab · from cli"), "the seeded conversation, with its agent and sender");
  await shot(page, "sessions");
  await page.getByRole("button", { name: /from cli/ }).click();
  await visible(page.getByText("Plant the tomatoes in May."), "the conversation's history");
  await visible(page.getByText("when do I plant tomatoes?"), "the user's message in the history");
  await shot(page, "conversation");
});

test("a message gets its answer streamed into the chat, thinking dimmed", async () => {
  await nav(page, "Chat").click();
  env.fake.script({ thinking: "The user greets me.", text: "Hello from the fake model, streamed in pieces.", usage: { prompt: 60_000, completion: 4_000 } });
  await page.getByLabel("Message").fill("hello there");
  await page.getByLabel("Message").press("Enter");
  await visible(page.getByText("Hello from the fake model, streamed in pieces."), "the streamed answer");
  await visible(page.locator(".thinking", { hasText: "The user greets me." }), "the thinking, dimmed");
  await visible(page.locator(".turn.done"), "the run's end");
  expect(await page.locator(".turn.done .footer").textContent()).toContain("fake-model");
});

test("an approval is answered in the page and the tool runs", async () => {
  env.fake.script(
    {
      toolCalls: [
        { id: "a1", name: "bash", arguments: JSON.stringify({ command: "echo approved-in-browser" }) },
        { id: "a2", name: "no_such_tool", arguments: JSON.stringify({ path: "nowhere" }) },
      ],
    },
    { text: "The command ran." },
  );
  await page.getByLabel("Message").fill("run the echo");
  await page.getByRole("button", { name: "Send" }).click();
  const allow = await visible(page.getByRole("button", { name: "Allow once" }), "the approval's buttons");
  await visible(page.locator(".ask.approval", { hasText: "echo approved-in-browser" }), "the command in the approval question");
  await shot(page, "approval");
  await allow.click();
  await visible(page.getByText("The command ran."), "the answer after the approved call");
  await chatIdle(page, "the approved run's end");
  await visible(page.locator(".ask.answered", { hasText: "answered: yes" }), "the approval marked answered");
  const card = page.locator(".turn.done .tool-card.done", { hasText: "bash" }).last();
  await card.locator("summary").click();
  await visible(card.locator(".tool-output", { hasText: "approved-in-browser" }), "the tool's output in its card");
  await visible(page.locator(".turn.done .tool-card.failed", { hasText: "no_such_tool" }), "the failed call's card");
  await shot(page, "chat");
});

test("a conversation's history shows its tool calls as folded cards, with output and error state", async () => {
  await nav(page, "Sessions").click();
  await page.getByRole("button", { name: /from console/ }).click();
  const bash = page.locator(".history .tool-card", { hasText: "bash" });
  await visible(bash, "the bash call's card in the history");
  expect(await bash.getAttribute("class")).toContain("done");
  expect(await bash.getAttribute("open")).toBeNull();
  expect(await bash.locator(".tool-output").isVisible()).toBe(false);
  await bash.locator("summary").click();
  await visible(bash.locator(".tool-output", { hasText: "approved-in-browser" }), "the saved output in the opened card");
  await visible(bash.locator(".tool-args", { hasText: "echo approved-in-browser" }), "the call's arguments in the opened card");
  const failed = page.locator(".history .tool-card.failed", { hasText: "no_such_tool" });
  await visible(failed, "the failed call's card in the history");
  await failed.locator("summary").click();
  await visible(failed.locator(".tool-output", { hasText: "tool not available" }), "the failed call's error");
  await visible(page.locator(".history .message.assistant .text", { hasText: "The command ran." }), "the answer after the calls");
  await shot(page, "history-tools");
});

test("Cancel stops a stalled run; a message sent during a run stays in the box, with the reason", async () => {
  await nav(page, "Chat").click();
  expect(await page.locator(".turn.running").count()).toBe(0);
  env.fake.script({ text: "This answer stalls after its first words and never ends", stallAfterChunks: 4 });
  const box = page.getByLabel("Message");
  await box.fill("tell me something long");
  await box.press("Enter");
  await pageUntil(page, "the message to be sent (the box emptied)", `document.getElementById("chat-input").value === ""`);
  await visible(page.locator(".turn.running .assistant .text", { hasText: "This answer" }), "the stalled run's first words");
  await box.fill("and another thing");
  await box.press("Enter");
  await visible(page.getByRole("status").filter({ hasText: "A run is going on" }), "why the second message was not sent");
  expect(await box.inputValue()).toBe("and another thing");
  expect(await page.locator(".turn").count()).toBe(3);
  const cancel = page.getByRole("button", { name: "Cancel" });
  expect(await cancel.isEnabled()).toBe(true);
  await cancel.click();
  await visible(page.locator(".turn.interrupted .footer", { hasText: "cancelled" }), "the run marked cancelled");
  expect(await cancel.isDisabled()).toBe(true);
  await box.fill("");
});

test("a run started with `crabtalk send` shows live", async () => {
  await nav(page, "Live").click();
  // The subscription is known to be up: the earlier runs' events are listed.
  await visible(page.locator(".event", { hasText: "The command ran." }), "an earlier run's events in the live view");
  const doneBefore = await page.locator(".event.kind-done").count();
  env.fake.script({ text: "Live from the command line, word by word.", holdAfterChunks: 4 });
  const cli = runCli(["send", "say something live"], { home: env.daemon.home });
  let cliDone = false;
  void cli.then(() => (cliDone = true));
  await visible(page.locator(".event", { hasText: "Live from" }), "the CLI run's first words, live");
  expect(cliDone).toBe(false);
  await shot(page, "live");
  env.fake.release();
  const result = await cli;
  expect(result.code).toBe(0);
  await visible(page.locator(".event", { hasText: "Live from the command line, word by word." }), "the CLI run's whole answer");
  await pageUntil(page, "the CLI run's end event", `document.querySelectorAll(".event.kind-done").length > ${doneBefore}`);
});

test("usage shows charts per day and per model; the system view lists agents, models, MCP servers and packages", async () => {
  await page.getByRole("navigation", { name: "views" }).getByRole("button", { name: "Usage" }).click();
  await visible(page.getByRole("img", { name: "cost per day" }), "the cost-per-day chart");
  await visible(page.getByRole("img", { name: "cost per model" }), "the cost-per-model chart");
  await visible(page.getByRole("rowheader", { name: "fake-model" }), "the model's row in the usage table");
  await shot(page, "usage");
  await page.getByRole("navigation", { name: "views" }).getByRole("button", { name: "System" }).click();
  await visible(page.getByRole("heading", { name: "Agents" }), "the agents");
  await visible(page.locator(".card", { hasText: "fake-model" }).first(), "the model");
  await visible(page.getByRole("heading", { name: "MCP servers" }), "the MCP servers");
  await visible(page.getByRole("heading", { name: "Packages" }), "the packages");
  await shot(page, "system");
});

test("a read token sees everything but may not send, answer or cancel, and is told why", async () => {
  const reader = await browser.newContext();
  const p = await reader.newPage();
  try {
    await logIn(p, readToken);
    await visible(p.getByText("agent crab · from cli"), "the conversations for a read token");
    await p.getByRole("navigation", { name: "views" }).getByRole("button", { name: "Chat" }).click();
    const send = p.getByRole("button", { name: "Send" });
    await visible(send, "the chat's Send button");
    expect(await send.isDisabled()).toBe(true);
    expect(await send.getAttribute("title")).toContain('"viewer" is a read token');
    expect(await p.getByLabel("Message").isDisabled()).toBe(true);
  } finally {
    await reader.close();
  }
});

test("at phone width nothing scrolls sideways and the chat fits", async () => {
  const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  const p = await phone.newPage();
  try {
    await logIn(p, operateToken);
    await visible(p.getByText("agent crab · from cli"), "the conversations on a phone");
    await shot(p, "phone-sessions");
    for (const view of ["Chat", "Live", "Usage", "System"]) {
      await p.getByRole("navigation", { name: "views" }).getByRole("button", { name: view }).click();
      await pageUntil(p, `the ${view} view to fit 375 px`, "document.documentElement.scrollWidth <= 375");
    }
    await p.getByRole("navigation", { name: "views" }).getByRole("button", { name: "Chat" }).click();
    await shot(p, "phone-chat");
  } finally {
    await phone.close();
  }
});

test("a hostile model's markup, control characters and huge tool call are shown as text, and the page stays responsive", async () => {
  const own = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const hostile = await own.newPage();
  try {
    await logIn(hostile, operateToken);
    await nav(hostile, "Chat").click();
    const markup = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>\u0007\u001b[31mred\u0000`;
    env.fake.script(
      {
        toolCalls: [
          { id: "h1", name: '<b id="pwn-name">x</b>', arguments: JSON.stringify({ blob: `<svg onload="window.__pwned=3">${"A".repeat(8 * 1024)}` }) },
        ],
      },
      { text: `The model says ${markup} and ends.` },
    );
    await hostile.getByLabel("Message").fill("say something hostile");
    await hostile.getByRole("button", { name: "Send" }).click();
    await visible(hostile.locator(".turn .assistant .text", { hasText: "<script>window.__pwned=2</script>" }), "the markup shown as text");
    const card = hostile.locator(".turn .tool-card", { hasText: '<b id="pwn-name">x</b>' });
    await visible(card, "the call's markup name shown as text");
    // The closed card shows the start of the arguments only. (Far larger ones make the fake model's small context compact first.)
    expect(((await card.locator(".args-preview").textContent()) ?? "").length).toBeLessThan(200);
    // Nothing it wrote became an element or ran (the page's own CSP forbids string evaluation: a function is passed).
    expect(await hostile.locator("#pwn-name, .turn img, .turn svg, .turn script").count()).toBe(0);
    expect(await hostile.evaluate(() => (globalThis as { __pwned?: number }).__pwned ?? "none")).toBe("none");
    // Still answering: another view opens and the chat comes back.
    await nav(hostile, "System").click();
    await visible(hostile.getByRole("heading", { name: "Agents" }), "another view after the huge call");
  } finally {
    await own.close();
  }
});
