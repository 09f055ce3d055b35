// Preloaded with `node --import` into a CLI under test: each load of a compiler package prints
// "compiler loaded: <specifier> from <importer>" on stderr, so a test can tell a command kept the
// compiler out, which no timing can show reliably.
import { register } from 'node:module';

register('./compiler-load-hooks.mjs', import.meta.url);
