#!/usr/bin/env node
// Environment first, then the program: colour and React settings must be in place before Ink or
// any colour library is loaded.
if (process.env.NO_COLOR) process.env.FORCE_COLOR = "0";
if (process.argv.includes("--no-color")) process.env.FORCE_COLOR = "0";
process.env.NODE_ENV ??= "production";

const { main } = await import("./main.js");
process.exitCode = await main(process.argv);
