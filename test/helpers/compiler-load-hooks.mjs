// Module hooks for compiler-loads.mjs; they run on the loader's own thread.
const COMPILER = /\/node_modules\/(typescript|ts-morph|@ts-morph\/common)\//;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (COMPILER.test(resolved.url)) process.stderr.write(`compiler loaded: ${specifier} from ${context.parentURL}\n`);
  return resolved;
}
