// Bootstrap of a worker thread of the local runtime (worker-threads.ts). Plain JavaScript, so that it starts
// the same way under `node --import tsx` (npm start), a test runner that transforms TypeScript itself (jest),
// or plain node: it registers tsx's ESM loader in this thread, then loads the TypeScript that runs handlers.
import { register } from 'tsx/esm/api';

register();
await import('./worker-thread-handlers.ts');
