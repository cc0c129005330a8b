const guarded = new WeakSet<NodeJS.WritableStream>();

/**
 * exitQuietlyOnBrokenPipe(stream, exit) makes a reader that stops early (`fairaudit
 * models train ... | head`) end the command quietly with status 0: the write that meets
 * the closed pipe fails with EPIPE, which Node emits as an 'error' event on the stream,
 * and with no listener that event became an uncaught exception and a stack trace. Any
 * other stream error is thrown as before. Installs one listener per stream however
 * often it is called. O(1).
 */
export function exitQuietlyOnBrokenPipe(
  stream: NodeJS.WritableStream,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  if (guarded.has(stream)) return;
  guarded.add(stream);
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') {
      exit(0);
      return;
    }
    throw error;
  });
}
