import { Box, Text } from "ink";
import type { ReactNode } from "react";

/** A titled region; the focused one shows its title inverted. */
export function Pane({
  title,
  focused,
  width,
  height,
  children,
}: {
  title: string;
  focused: boolean;
  width: number;
  height: number;
  children: ReactNode;
}) {
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text inverse={focused} bold wrap="truncate-end">
        {` ${title} `}
      </Text>
      {children}
    </Box>
  );
}
