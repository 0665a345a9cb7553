/**
 * Yjs messages travel as msgpack `bin`. socket.io-msgpack-parser (notepack) writes `bin`
 * only for a Node Buffer or, in browsers, a plain ArrayBuffer: a bare Uint8Array would go
 * out as an ext record (Node) or a map of indices (browser). These two functions are the
 * only place that knows.
 */
export function toWire(message: Uint8Array): Uint8Array | ArrayBuffer {
  const NodeBuffer = (globalThis as { Buffer?: NodeBufferStatic }).Buffer;
  if (NodeBuffer) return NodeBuffer.from(message.buffer, message.byteOffset, message.byteLength);
  const isWhole = message.byteOffset === 0 && message.byteLength === message.buffer.byteLength;
  return isWhole && message.buffer instanceof ArrayBuffer ? message.buffer : message.slice().buffer;
}

/** A received `bin` as a Uint8Array, whichever runtime decoded it. */
export function fromWire(message: Uint8Array | ArrayBuffer): Uint8Array {
  return message instanceof Uint8Array ? message : new Uint8Array(message);
}

interface NodeBufferStatic {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): Uint8Array;
}
