// Headless Chromium for the web console's tests: Debian's `chromium` package
// (installed by .ci/run) driven by playwright-core, which downloads no browser.
import { chromium, type Browser, type Locator, type Page } from "playwright-core";

export const CHROMIUM = process.env.CRABTALK_TEST_CHROMIUM ?? "/usr/bin/chromium";

/** How long a page condition may take on a loaded machine before the test fails naming it. */
export const PAGE_WAIT_MS = 20_000;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM });
}

/** Waits for `locator` to be visible; the error names `what`. */
export async function visible(locator: Locator, what: string, timeout = PAGE_WAIT_MS): Promise<Locator> {
  try {
    await locator.first().waitFor({ state: "visible", timeout });
  } catch (err) {
    throw new Error(`timed out after ${timeout} ms waiting for ${what}: ${(err as Error).message.split("\n")[0]}; ${await pageState(locator.page())}`);
  }
  return locator.first();
}

/** Where the page is and what it shows, for a failure's message: what it waited for may be all that went wrong. */
async function pageState(page: Page): Promise<string> {
  const shows = await page
    .locator("body")
    .textContent({ timeout: 1000 })
    .then((text) => JSON.stringify((text ?? "").replace(/\s+/g, " ").slice(0, 400)))
    .catch((err: Error) => `(unreadable: ${err.message.split("\n")[0]})`);
  return `the page is at ${page.url()} and shows ${shows}`;
}

/** Waits until `expression` (a JavaScript expression run in the page) is truthy; the error names `what`. */
export async function pageUntil(page: Page, what: string, expression: string, timeout = PAGE_WAIT_MS): Promise<void> {
  try {
    await page.waitForFunction(expression, undefined, { timeout, polling: 50 });
  } catch (err) {
    throw new Error(`timed out after ${timeout} ms waiting for ${what}: ${(err as Error).message.split("\n")[0]}; ${await pageState(page)}`);
  }
}
