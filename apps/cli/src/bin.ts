#!/usr/bin/env node
import nodeModule from "node:module";

// Environment first, then the program: colour and React settings must be in place before Ink or
// any colour library is loaded.
// NO_COLOR (or --no-color, which becomes NO_COLOR, also for the commands hatloop runs): no colour
// anywhere. The TUI's theme drops every colour but keeps bold, inverse and symbols, so focus, zones and
// errors still show; so the colour library must not be switched off (FORCE_COLOR=0 or the flag would).
if (process.argv.includes("--no-color")) {
  process.env.NO_COLOR = "1";
  process.argv = process.argv.filter((a) => a !== "--no-color");
}
process.env.NODE_ENV ??= "production";

// Node >= 22.1 keeps compiled code on disk (in the system's temporary directory), so a later start
// does not compile the bundle again (`hatloop ls`: 0.10 s instead of 0.13 s through the warm holder,
// 0.36 s instead of 0.39 s opening the database itself). Node 20 has no such cache: nothing happens.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { main } = await import("./main.js");
process.exitCode = await main(process.argv);
