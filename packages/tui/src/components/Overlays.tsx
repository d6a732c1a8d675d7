import { Box, Text } from "ink";
import { KEYS } from "./keys.js";

export function HelpOverlay({ controls, width }: { controls: boolean; width: number }) {
  const keys = KEYS.filter((k) => controls || !k.control);
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} width={Math.min(width, 78)}>
      <Text bold>Keys {controls ? "" : "(watching: the loop runs elsewhere)"}</Text>
      {keys.map((k) => (
        <Text key={k.keys} wrap="truncate-end">
          <Text color="cyan">{k.keys.padEnd(14)}</Text> {k.does}
        </Text>
      ))}
      <Text color="gray">any key closes this help</Text>
    </Box>
  );
}

export function SteerInput({ text }: { text: string }) {
  return (
    <Text wrap="truncate-end">
      <Text color="blueBright" bold>
        steer&gt;{" "}
      </Text>
      {text}
      <Text inverse> </Text>
      <Text color="gray"> (Enter sends, Esc cancels)</Text>
    </Text>
  );
}

export function QuitConfirm() {
  return (
    <Text color="yellow" bold wrap="truncate-end">
      Quit? The loop stops now and pauses with a checkpoint (resume later). y / n
    </Text>
  );
}
