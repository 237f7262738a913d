/** A one-line progress bar on a terminal; silent when stderr is not a TTY (pipes, CI, tests). */
export interface Progress {
  tick(done: number): void;
  finish(message: string): void;
}

export function progressBar(total: number, unit: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const enabled = stream.isTTY === true && total > 0;
  const started = Date.now();
  let lastDraw = 0;
  const draw = (done: number) => {
    const width = 30;
    const filled = Math.round((done / total) * width);
    const rate = done / Math.max(0.001, (Date.now() - started) / 1000);
    stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${unit} (${Math.round(rate)}/s)`);
  };
  return {
    tick(done) {
      if (!enabled) return;
      const now = Date.now();
      if (now - lastDraw < 100 && done < total) return;
      lastDraw = now;
      draw(done);
    },
    finish(message) {
      if (enabled) stream.write('\r\x1b[K');
      stream.write(`${message}\n`);
    },
  };
}
