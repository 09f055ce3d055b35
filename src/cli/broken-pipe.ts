import { EXIT } from './exit-codes.js';

/**
 * A reader that goes away (`| head -1`) makes the next write fail with EPIPE, which unhandled is a
 * stack trace. The process ends at once and quietly: there is nobody left to tell, and the rest of
 * the output, or of a `watch`, has no reader. Any other failure to write stays an error.
 */
export function exitOnBrokenPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(EXIT.brokenPipe);
  });
}
