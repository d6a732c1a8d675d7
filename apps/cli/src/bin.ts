#!/usr/bin/env node
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

const { main } = await import("./main.js");
process.exitCode = await main(process.argv);
