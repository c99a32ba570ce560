// The web console's entry (docs/remote.md, "The web console"): bundled with
// index.html into the daemon's binary, served by the remote listener at GET /.
import { render } from "preact";
import { App } from "./app.tsx";

const root = document.getElementById("app")!;
// Another page framing the console could lay its own content over the buttons
// (an approval, Cancel) and make the owner click them: the console runs only
// as a page of its own (docs/remote.md#what-is-refused-and-why).
if (window.top !== window.self) {
  root.textContent = "The crabtalk console does not run inside another page: open it in a tab of its own.";
} else {
  render(<App />, root);
}
