/**
 * At most 20 frames a second (the store throttles too), each written inside synchronized-output
 * brackets (Ink does that on a terminal). Incremental: a frame rewrites only the rows that changed,
 * in place, instead of erasing the whole view and drawing it again, which a terminal (or tmux, which
 * reads a big frame in pieces) could show half drawn. Ink 6.8 moved the cursor up a row too few in
 * this mode when the frame is shorter than the terminal, as ours is (see SessionView), so the view
 * crept down the screen: patches/ink@6.8.0.patch backports Ink 7's fix.
 */
export const VIEW_OPTIONS = { exitOnCtrlC: false, patchConsole: false, incrementalRendering: true, maxFps: 20 } as const;
