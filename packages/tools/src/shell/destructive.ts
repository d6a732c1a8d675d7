// A last line of defence against commands that are destructive beyond the worktree. It is a
// blocklist, not a sandbox: hatloop has no OS isolation, and this only stops the obvious.

const ROOTISH = String.raw`(?:/|/\*|~/?|~/\*|\$HOME/?|\$\{HOME\}/?|/(?:bin|boot|dev|etc|home|lib|lib64|opt|root|sbin|srv|usr|var)/?\*?)`;

/** Start of a command word: line start, after a separator, or after a prefix such as xargs/env. */
const COMMAND_START = String.raw`(?:^|[;&|(\`\n]|\$\()\s*(?:(?:xargs|env|exec|nohup|time|command)\s+(?:-\S+\s+)*)*`;

const RULES: Array<{ pattern: RegExp; reason: string }> = [
  {
    // rm with a recursive flag aimed at /, ~ or a top-level system directory.
    pattern: new RegExp(
      String.raw`\brm\s+(?:-[-\w]*\s+)*(?:-\w*[rR]\w*|--recursive)\b(?:\s+-[-\w]*)*\s+(?:--\s+)?["']?${ROOTISH}["']?(?:\s|;|&|\||$)`,
    ),
    reason: "it recursively deletes the root, home or a system directory",
  },
  { pattern: /--no-preserve-root\b/, reason: "it disables rm's protection of /" },
  { pattern: new RegExp(String.raw`${COMMAND_START}(?:sudo|doas)\b`), reason: "it asks for root privileges (sudo)" },
  { pattern: /\bsu\s+(?:-\s*|root\b)/, reason: "it switches to the root user" },
  { pattern: /\bmkfs(?:\.\w+)?\b/, reason: "it formats a filesystem (mkfs)" },
  {
    pattern: /\bdd\b[^;&|]*\bof=\/dev\/(?!null\b|zero\b|stdout\b|stderr\b|fd\/)/,
    reason: "it writes raw data to a device (dd of=/dev/...)",
  },
  { pattern: />\s*\/dev\/(?:sd|nvme|hd|vd|xvd|mmcblk|disk)\w*/, reason: "it overwrites a block device" },
  { pattern: /:\s*\(\s*\)\s*\{[^}]*:\s*\|\s*:\s*&[^}]*\}\s*;\s*:/, reason: "it is a fork bomb" },
  { pattern: /\bchmod\s+(?:-\w+\s+)*-R\s+(?:-\w+\s+)*0?777\s+\/(?:\s|$)/, reason: "it makes the whole filesystem world-writable" },
  { pattern: new RegExp(String.raw`${COMMAND_START}(?:shutdown|reboot|halt|poweroff)\b`), reason: "it shuts down or reboots the machine" },
];

/** Why `command` is refused, or undefined when it may run. */
export function destructiveReason(command: string): string | undefined {
  for (const rule of RULES) {
    if (rule.pattern.test(command)) return rule.reason;
  }
  return undefined;
}
