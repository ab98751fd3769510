/**
 * Entry of the desk's Electron utility process (forked by main/index.ts): the server, scheduler
 * and SQLite run here, off the UI thread. It talks to main only through process.parentPort.
 * Must not import 'electron' (main-process only); the logic lives in desk-service.ts.
 */
import { serveDesk } from './desk-service';

const service = serveDesk(process.parentPort);
// Anything uncaught is logged and reported to main (which tells the user and quits), then we exit.
process.on('uncaughtException', (err) => service.fail(err));
process.on('unhandledRejection', (err) => service.fail(err));
// Main quits (ending this process) once it has our last message; exiting at once could drop that
// message, so exit by ourselves only if main has not ended us within a moment.
void service.done.then((code) => setTimeout(() => process.exit(code), 3_000));
