// Types of bin/build-cache.mjs for the TypeScript that imports it.
export declare const CHECKOUT: string;
export declare const CACHE: string;
export declare const REQUIRE_BANNER: string;
export declare function hashOf(contents: string | Uint8Array): string;
export declare const BASE_INPUTS: string[];
export declare function baseInputs(): Record<string, string>;
export declare function freshOutput(cache: string, manifestName: string, version: number, inputNames?: string[]): string | null;
export declare function writeWhole(file: string, contents: string | Uint8Array): void;
export declare function recordBuild(
  cache: string,
  manifestName: string,
  manifest: { version: number; output: string; inputs: Record<string, string> },
  earlier: RegExp,
  staleMs?: number,
): void;
