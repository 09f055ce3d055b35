import { PassThrough, type Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';

/** Standard input as read on a thread of its own. */
export interface InputThread {
  /** What the client sends, for the protocol transport. */
  readonly stream: Readable;
  /** Whether the input has ended: readable while the main thread is busy, as soon as the reading thread sees it. */
  ended(): boolean;
  close(): Promise<void>;
}

/**
 * Runs as the reading thread, reading the input as the main thread's process.stdin would:
 * a terminal as a terminal, a pipe or socket as a socket, anything else as a file.
 */
const READER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const net = require('node:net');
const tty = require('node:tty');
const { fd } = workerData;
const ended = new Int32Array(workerData.ended);
function open() {
  if (tty.isatty(fd)) return new tty.ReadStream(fd);
  try {
    return new net.Socket({ fd, readable: true, writable: false });
  } catch {
    return fs.createReadStream('', { fd, autoClose: false });
  }
}
const input = open();
const finish = () => {
  Atomics.store(ended, 0, 1);
  parentPort.postMessage('end');
};
// A chunk is a view into a larger pooled buffer, which posting would copy whole.
input.on('data', (chunk) => {
  const bytes = new Uint8Array(chunk);
  parentPort.postMessage(bytes, [bytes.buffer]);
});
input.once('end', finish);
input.once('error', finish);
`;

/**
 * Reads `fd` off the main thread. Analyzing a repository holds the main thread for seconds
 * at a time (20 s on a large harness) with no turn of the event loop, so the main thread would
 * learn that the client closed the input only once it finished; the reading thread notes the
 * end in shared memory, which the analysis can check between files.
 */
export function readOnThread(fd: number): InputThread {
  const flag = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const stream = new PassThrough();
  const worker = new Worker(READER, { eval: true, workerData: { fd, ended: flag.buffer } });
  const end = (): void => {
    if (!stream.writableEnded) stream.end();
  };
  worker.on('message', (message: Uint8Array | 'end') => {
    if (message === 'end') end();
    else stream.write(Buffer.from(message.buffer, message.byteOffset, message.byteLength));
  });
  worker.once('error', (error) => stream.destroy(error));
  worker.once('exit', end);
  return {
    stream,
    ended: () => Atomics.load(flag, 0) === 1,
    close: async () => {
      await worker.terminate();
    },
  };
}
