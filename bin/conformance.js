#!/usr/bin/env node
// Runs the TypeScript command line through tsx's loader, so `npx conformance …` works right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
