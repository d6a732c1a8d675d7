import { crc32 } from "node:zlib";

// AWS event-stream framing (application/vnd.amazon.eventstream), as Bedrock's
// InvokeModelWithResponseStream writes it: per message a prelude (total length, headers length,
// CRC32 of those 8 bytes), string-typed headers, the payload, and a CRC32 of everything before.

const STRING_HEADER = 7;

function eventStreamMessage(headers: Record<string, string>, payload: Buffer): Buffer {
  const encoded = Buffer.concat(Object.entries(headers).map(([name, value]) => header(name, value)));
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(12 + encoded.length + payload.length + 4, 0);
  prelude.writeUInt32BE(encoded.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const message = Buffer.concat([prelude, encoded, payload]);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(crc32(message), 0);
  return Buffer.concat([message, trailer]);
}

function header(name: string, value: string): Buffer {
  const key = Buffer.from(name, "utf8");
  const text = Buffer.from(value, "utf8");
  const out = Buffer.alloc(1 + key.length + 1 + 2 + text.length);
  out.writeUInt8(key.length, 0);
  key.copy(out, 1);
  out.writeUInt8(STRING_HEADER, 1 + key.length);
  out.writeUInt16BE(text.length, 2 + key.length);
  text.copy(out, 4 + key.length);
  return out;
}

/** A `chunk` event: the Messages API event as JSON, base64 in `bytes` (Bedrock pads with `p`). */
export function chunkMessage(event: unknown): Buffer {
  const bytes = Buffer.from(JSON.stringify(event), "utf8").toString("base64");
  const payload = Buffer.from(
    JSON.stringify({ bytes, p: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123".slice(0, bytes.length % 40) }),
  );
  return eventStreamMessage({ ":event-type": "chunk", ":content-type": "application/json", ":message-type": "event" }, payload);
}

/** A modelled exception mid-stream, e.g. throttlingException, as Bedrock sends it. */
export function exceptionMessage(type: string, message: string): Buffer {
  const payload = Buffer.from(JSON.stringify({ message }));
  return eventStreamMessage({ ":exception-type": type, ":content-type": "application/json", ":message-type": "exception" }, payload);
}
