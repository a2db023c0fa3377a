// dynalite ships no types; this is the part the local runtime uses.
declare module 'dynalite' {
  import type { Server } from 'node:net';
  interface DynaliteOptions {
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
  }
  export default function dynalite(options?: DynaliteOptions): Server;
}
