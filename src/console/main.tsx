// The web console's entry (docs/remote.md, "The web console"): bundled with
// index.html into the daemon's binary, served by the remote listener at GET /.
import { render } from "preact";
import { App } from "./app.tsx";

render(<App />, document.getElementById("app")!);
