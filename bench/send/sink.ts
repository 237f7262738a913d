/**
 * The SMTP sink both candidates send to, in its own process: smtp-server on 127.0.0.1, every message
 * read to its end and counted. Prints {"port"} when listening; on SIGTERM prints {"received","bytes"}.
 */
import { SMTPServer } from 'smtp-server';

let received = 0;
let bytes = 0;
const server = new SMTPServer({
  secure: false,
  disabledCommands: ['STARTTLS', 'AUTH'],
  hideDSN: false,
  size: 64 * 1024 * 1024,
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
    stream.on('end', () => {
      received += 1;
      callback();
    });
  },
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.server.address() as { port: number }).port })}\n`));
process.once('SIGTERM', () => {
  process.stdout.write(`${JSON.stringify({ received, bytes })}\n`);
  server.close(() => process.exit(0));
});
