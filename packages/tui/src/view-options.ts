/**
 * At most 20 frames a second (the store throttles too), each in one synchronized update. Not Ink's
 * incremental mode: with a frame shorter than the terminal (ours is one row short, see SessionView)
 * it moves the cursor up one line too few and the view creeps down the screen by a row per frame.
 */
export const VIEW_OPTIONS = { exitOnCtrlC: false, patchConsole: false, incrementalRendering: false, maxFps: 20 } as const;
