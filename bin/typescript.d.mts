// Types of bin/typescript.mjs for the TypeScript that imports it.
export declare const COMPILED_ENV: string;
export declare function compiledSuite(cache?: string): Promise<string | null>;
export declare function compiledSuiteEnv(): Promise<Record<string, string>>;
export declare function importSuite(path: string, beforeTsx?: () => Promise<unknown>): Promise<unknown>;
