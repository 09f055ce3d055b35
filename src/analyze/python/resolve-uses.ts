import type { VariableAccess } from '../syntax/file-resolution.js';
import type { Slot, UnresolvedCall, UnresolvedReason } from '../../graph/model.js';
import { EdgeSink } from '../syntax/edge-sink.js';
import { fitsArguments } from './parameter-shape.js';
import { BUILTIN_METHOD_NAMES } from './python-builtins.js';
import type { FunctionFact, NamePath, UseFact } from './python-facts.js';
import { splitId, type PythonProgram } from './python-program.js';
import type { Landing } from './python-values.js';

/**
 * How many methods a call may be tied to by its method's name alone. A name more classes declare
 * says too little about which one runs: the call stays unresolved (`dynamic`).
 */
export const NAME_CANDIDATE_LIMIT = 3;

/** What one file's uses resolve to, before module variables are told state or constant. */
export interface FileUses {
  sink: EdgeSink;
  slots: Map<string, Slot>;
  variables: VariableAccess[];
  unresolved: UnresolvedCall[];
  resolvedCallLines: number[];
}

type Touch = 'read' | 'write' | 'update' | 'mutate';

/** The names the repository declares: methods by name (for calls resolved by name) and every name of a unit or field. */
export interface DeclaredNames {
  methods: Map<string, Array<{ id: string; shape?: FunctionFact }>>;
  all: Set<string>;
}

export function declaredNamesOf(program: PythonProgram): DeclaredNames {
  const methods: DeclaredNames['methods'] = new Map();
  const all = new Set<string>();
  for (const unit of program.units.values()) {
    if (unit.kind === 'file') continue;
    const last = unit.symbol.slice(unit.symbol.lastIndexOf('.') + 1);
    const tilde = last.indexOf('~');
    const name = tilde < 0 ? last : last.slice(0, tilde);
    all.add(name);
    if (unit.kind !== 'method') continue;
    const method = { id: unit.id, shape: program.factsOf(unit.file)?.functions[unit.symbol] };
    const found = methods.get(name);
    if (found) found.push(method);
    else methods.set(name, [method]);
  }
  for (const { fact } of program.classFacts.values()) for (const field in fact.fields) all.add(field);
  for (const found of methods.values()) found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { methods, all };
}

/**
 * Resolves the uses of one file: each walks its path step by step, and every step that names a
 * unit or a slot yields an edge (reading through `self.tools` reads tools), the last one by the
 * use's access (a call, a read, a write).
 */
export function resolveUses(program: PythonProgram, file: string, uses: readonly UseFact[], names: DeclaredNames): FileUses {
  const result: FileUses = { sink: new EdgeSink(), slots: new Map(), variables: [], unresolved: [], resolvedCallLines: [] };
  const { sink } = result;

  const touch = (landing: Landing | undefined, mode: Touch, from: string, line: number): void => {
    if (!landing) return;
    if (landing.slot !== undefined) {
      addSlot(landing.slot);
      if (mode !== 'write') sink.add('reads', from, landing.slot, line);
      if (mode !== 'read') sink.add('writes', from, landing.slot, line);
      return;
    }
    const unit = landing.unit === undefined ? undefined : program.units.get(landing.unit);
    if (!unit) return;
    if (unit.kind === 'variable') {
      if (unit.id !== from) result.variables.push({ from, id: unit.id, line, read: mode !== 'write', write: mode !== 'read' });
    } else if (unit.kind === 'accessor') sink.add('calls', from, unit.id, line, { via: 'direct' });
    else if (mode === 'read' && unit.kind !== 'property') sink.add('references', from, unit.id, line);
  };

  const addSlot = (id: string): void => {
    if (result.slots.has(id)) return;
    const dot = id.lastIndexOf('.');
    const owner = id.slice(0, dot);
    const name = id.slice(dot + 1);
    const field = program.classFact(owner)?.fields[name];
    const [ownerFile] = splitId(owner);
    result.slots.set(id, { id, kind: 'field', file: ownerFile, owner, name, line: field?.line ?? 1, type: field?.type ?? '' });
  };

  const unresolved = (use: UseFact, from: string, reason: UnresolvedReason): void => {
    result.unresolved.push({ from, text: use.text ?? '', line: use.line, reason });
  };

  const callUnit = (id: string, use: UseFact, from: string, receiver: string | undefined): boolean => {
    const kind = program.units.get(id)?.kind;
    if (kind === 'class') sink.add('instantiates', from, id, use.line);
    else if (kind === 'function' || kind === 'method' || kind === 'constructor' || kind === 'accessor') {
      sink.add('calls', from, id, use.line, { via: 'direct' });
      const name = use.path.attributes[use.path.attributes.length - 1];
      if (kind === 'method' && receiver !== undefined && name !== undefined) {
        for (const override of program.overridesBelow(receiver, name)) if (override !== id) sink.add('calls', from, override, use.line, { via: 'dispatch' });
      }
    } else return false;
    result.resolvedCallLines.push(use.line);
    return true;
  };

  const resolveCall = (last: Landing, use: UseFact, from: string): void => {
    if (last.unit !== undefined && callUnit(last.unit, use, from, last.receiver)) return;
    // Calling what a variable or field holds reads it, then calls the value.
    if (last.unit !== undefined || last.slot !== undefined) touch(last, 'read', from, use.line);
    const value = last.value;
    if (value.kind === 'unit' && callUnit(value.id, use, from, undefined)) return;
    if (value.kind === 'instance') {
      const call = program.classMember(value.classId, '__call__', false);
      if (call.unit !== undefined && callUnit(call.unit, use, from, undefined)) return;
      return unresolved(use, from, 'dynamic');
    }
    if (value.kind === 'builtin') return;
    if (value.kind === 'external') return unresolved(use, from, 'external');
    if (value.kind === 'unknown') return unresolved(use, from, 'unknown');
    const name = use.path.attributes[use.path.attributes.length - 1];
    if (name === undefined) return unresolved(use, from, 'dynamic');
    // A member no class along the MRO declares, which subclasses define: the template-method pattern.
    if (last.missing !== undefined) {
      const overrides = program.overridesBelow(last.missing, name);
      for (const override of overrides) sink.add('calls', from, override, use.line, { via: 'dispatch' });
      if (overrides.length > 0) {
        result.resolvedCallLines.push(use.line);
        return;
      }
    }
    // A method name nothing in the repository declares cannot reach repository code.
    if (!names.all.has(name)) return unresolved(use, from, 'external');
    if (BUILTIN_METHOD_NAMES.has(name) || (name.startsWith('__') && name.endsWith('__'))) return unresolved(use, from, 'dynamic');
    const candidates = (names.methods.get(name) ?? []).filter(({ shape }) => !shape || !use.arguments || fitsArguments(shape, use.arguments));
    if (candidates.length === 0 || candidates.length > NAME_CANDIDATE_LIMIT) return unresolved(use, from, 'dynamic');
    for (const candidate of candidates) sink.add('calls', from, candidate.id, use.line, { resolution: 'name' });
    result.resolvedCallLines.push(use.line);
  };

  const unitIds = new Map<string, string>([['', file]]);
  // Extraction hands identical paths of a file as one object: each is walked once.
  const walked = new Map<NamePath, Landing[]>();
  const walk = (path: NamePath): Landing[] => {
    let landings = walked.get(path);
    if (!landings) {
      const steps: Landing[] = [];
      program.evalPath(file, path, (landing) => steps.push(landing));
      walked.set(path, (landings = steps));
    }
    return landings;
  };
  for (const use of uses) {
    let from = unitIds.get(use.from);
    if (from === undefined) unitIds.set(use.from, (from = `${file}#${use.from}`));
    const landings = walk(use.path);
    // Every step but the last is read on the way: `self.tools.get()` reads `tools`.
    for (let index = 0; index < landings.length - 1; index += 1) touch(landings[index], 'read', from, use.line);
    const last = landings[landings.length - 1]!;
    const receiver = landings.length > 1 ? landings[landings.length - 2] : undefined;
    switch (use.access) {
      case 'call':
        resolveCall(last, use, from);
        if (use.mutatesReceiver) touch(receiver, 'write', from, use.line);
        break;
      case 'read':
        touch(last, 'read', from, use.line);
        break;
      case 'write':
      case 'update':
        // An attribute no class declares, set on what a field or variable holds, changes that object.
        if (last.slot === undefined && last.unit === undefined) touch(receiver, 'write', from, use.line);
        else touch(last, use.access, from, use.line);
        break;
      case 'mutate':
        touch(last, 'mutate', from, use.line);
        break;
    }
  }
  return result;
}
