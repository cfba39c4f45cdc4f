// Spec files run through Node's own `import` (vitest's experimental.viteModuleRunner off): each worker thread
// registers tsx's loader once, before the first spec file is imported.
if (!globalThis.__conformanceTsx) {
  globalThis.__conformanceTsx = true;
  const { register } = await import('tsx/esm/api');
  register();
}
