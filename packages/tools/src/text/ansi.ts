// Colour and cursor escapes only cost tokens and break line comparisons.
// eslint-disable-next-line no-control-regex -- escape sequences are what it removes
const ANSI = /[\u001b\u009b][[\]()#;?]*(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-ORZcf-nqry=><~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\))/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}
