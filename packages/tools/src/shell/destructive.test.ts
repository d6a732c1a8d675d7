import { describe, expect, it } from "vitest";
import { destructiveReason } from "./destructive.js";

describe("destructiveReason", () => {
  it.each([
    "rm -rf /",
    "rm -rf /*",
    "rm -fr ~",
    "rm -r -f $HOME",
    "cd x && rm --recursive --force /usr",
    "rm -rf --no-preserve-root /",
    "sudo apt-get install x",
    "echo hi; sudo reboot",
    "xargs sudo rm",
    "mkfs.ext4 /dev/sda1",
    "dd if=/dev/zero of=/dev/sda bs=1M",
    ":(){ :|:& };:",
    "chmod -R 777 /",
    "shutdown -h now",
  ])("refuses %s", (command) => {
    expect(destructiveReason(command)).toBeDefined();
  });

  it.each([
    "rm -rf node_modules dist",
    "rm -rf ./build/",
    "rm -rf /tmp/hatloop-scratch",
    "rm -rf ~/project/tmp",
    "dd if=/dev/zero of=/dev/null count=1",
    "grep -r sudo docs/",
    'git commit -m "handle graceful shutdown"',
    "npm test",
    "chmod 755 scripts/run.sh",
  ])("allows %s", (command) => {
    expect(destructiveReason(command)).toBeUndefined();
  });
});
