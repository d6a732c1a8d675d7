import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { TuiState } from "../state/types.js";

/** What every pane of the run view is given: the state, its size, whether it has the focus, how far it is scrolled. */
export interface PaneProps {
  state: TuiState;
  width: number;
  height: number;
  focused: boolean;
  offset: number;
}

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
    <Box flexDirection="column" width={width} height={height} overflowY="hidden">
      <Text inverse={focused} bold wrap="truncate-end">
        {` ${title} `}
      </Text>
      {children}
    </Box>
  );
}
