import { main } from "./cli.js";

// Entry point of `pnpm bench`: node bench/dist/main.js <args>.

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${(error instanceof Error ? error.stack : undefined) ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
