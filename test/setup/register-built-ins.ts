import { registerBuiltIns } from '../../src/cli/registry.js';

// Every test file sees what the CLI sees: the built-in experiment kinds and the
// papers' layouts registered by the composition root (src/cli/registry.ts).
registerBuiltIns();
