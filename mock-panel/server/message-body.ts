import type { IncomingMessage } from 'node:http';

/**
 * The next chunk of a request body, null at its end. Reads the socket only when asked: a request refused before its
 * body is looked at costs what node buffered unasked, and an oversized body is stopped at the cap. Rejects when the
 * client goes away mid-body.
 */
export function nextChunk(message: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const settle = () => {
      message.off('readable', tryRead);
      message.off('end', onEnd);
      message.off('error', onError);
      message.off('close', onClose);
    };
    const tryRead = () => {
      const chunk = message.read() as Buffer | null;
      if (chunk === null) return;
      settle();
      resolve(chunk);
    };
    const onEnd = () => {
      settle();
      resolve(null);
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    const onClose = () => {
      if (!message.complete) onError(new Error('the client closed the connection mid-body'));
    };
    if (message.readableEnded) return resolve(null);
    message.on('readable', tryRead);
    message.on('end', onEnd);
    message.on('error', onError);
    message.on('close', onClose);
    tryRead();
  });
}

/**
 * The body, or undefined as soon as it passes `limit`: nothing more is read. Leaving the rest unread does not
 * destroy the message, which would take the socket and the answer with it; the server closes the connection after
 * answering instead.
 */
export async function readCappedBody(message: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const chunk = await nextChunk(message);
    if (chunk === null) return Buffer.concat(chunks);
    size += chunk.byteLength;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
}
