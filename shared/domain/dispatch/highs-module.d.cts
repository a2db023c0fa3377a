import type { Highs } from 'highs';

/** highs.wasm compiled (a WebAssembly.Module; the project's TypeScript libraries do not declare WebAssembly). */
export type CompiledHighs = { readonly __compiledHighs: unique symbol };

export declare function compileHighs(): Promise<CompiledHighs>;
export declare function instantiateHighs(compiled: CompiledHighs): Promise<Highs>;
