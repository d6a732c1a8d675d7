// The project's lint: no debug output and no trailing whitespace in src/.
import { readdirSync, readFileSync } from "node:fs";

let problems = 0;
for (const file of readdirSync("src")) {
  readFileSync(`src/${file}`, "utf8")
    .split("\n")
    .forEach((line, i) => {
      const where = `src/${file}:${i + 1}`;
      if (/console\.log/.test(line)) {
        console.error(`${where}: error: console.log left in source`);
        problems++;
      }
      if (/[ \t]+$/.test(line)) {
        console.error(`${where}: error: trailing whitespace`);
        problems++;
      }
    });
}
if (problems > 0) {
  console.error(`lint failed: ${problems} problem(s)`);
  process.exit(1);
}
console.log("lint: ok");
