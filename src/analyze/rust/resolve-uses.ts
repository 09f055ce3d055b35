import type { VariableAccess } from '../syntax/file-resolution.js';
import type { Slot, UnresolvedCall, UnresolvedReason } from '../../graph/model.js';
import { EdgeSink } from '../syntax/edge-sink.js';
import type { Step, UseFact } from './rust-facts.js';
import type { RustProgram } from './rust-program.js';
import { BUILTIN_MACROS, MUTATING_METHODS, STD_METHOD_NAMES } from './rust-std.js';
import type { Callees, Landing } from './rust-values.js';

/**
 * How many inherent methods a call may be tied to by its method's name alone. A name more types
 * declare says too little about which one runs: the call stays unresolved (`dynamic`).
 */
export const NAME_CANDIDATE_LIMIT = 3;

/** What one file's uses resolve to, before statics are told state or constant. */
export interface FileUses {
  sink: EdgeSink;
  slots: Map<string, Slot>;
  /** Uses of consts and statics, kept apart until every file is read: whether each is state depends on writes anywhere. */
  statics: VariableAccess[];
  unresolved: UnresolvedCall[];
  resolvedCallLines: number[];
  /** Outside crates the file's code names by path (`serde_json::to_string`), beside those it imports. */
  externalCrates: Set<string>;
}

/** The repository's method names, for calls whose receiver's type is not known. */
export interface DeclaredNames {
  /** Inherent methods by name, sorted. */
  inherent: Map<string, string[]>;
  /** Every name of a unit or a field. */
  all: Set<string>;
}

export function declaredNamesOf(program: RustProgram): DeclaredNames {
  const inherent = new Map<string, string[]>();
  const all = new Set<string>();
  for (const unit of program.units.values()) {
    if (unit.kind === 'file') continue;
    const name = unit.symbol.slice(unit.symbol.lastIndexOf('.') + 1).replace(/~\d+$/, '');
    all.add(name);
    if (unit.kind !== 'method') continue;
    const list = inherent.get(name);
    if (list) list.push(unit.id);
    else inherent.set(name, [unit.id]);
  }
  for (const name of program.impls.traitsByMethod.keys()) all.add(name);
  for (const list of inherent.values()) list.sort();
  return { inherent, all };
}

type Touch = 'read' | 'write' | 'update' | 'mutate';

/**
 * Resolves the uses of one file: each walks its expression step by step; every step that names a
 * field or a static yields an access (reading through `self.tools` reads tools), the last one by the
 * use's access (a call, a read, a write), and a call yields its edges or an unresolved call.
 */
export function resolveUses(program: RustProgram, file: string, uses: readonly UseFact[], names: DeclaredNames): FileUses {
  const result: FileUses = { sink: new EdgeSink(), slots: new Map(), statics: [], unresolved: [], resolvedCallLines: [], externalCrates: new Set() };
  const { sink } = result;

  const addSlot = (id: string): void => {
    if (!result.slots.has(id)) result.slots.set(id, fieldSlot(program, id));
  };

  const touchHolder = (holder: string | undefined, mode: Touch, from: string, line: number): void => {
    if (holder === undefined) return;
    if (program.units.get(holder)?.kind === 'variable') {
      if (holder !== from) result.statics.push({ from, id: holder, line, read: mode !== 'write', write: mode !== 'read' });
      return;
    }
    addSlot(holder);
    if (mode !== 'write') sink.add('reads', from, holder, line);
    if (mode !== 'read') sink.add('writes', from, holder, line);
  };

  const touch = (landing: Landing | undefined, mode: Touch, from: string, line: number, callee = false): void => {
    if (!landing) return;
    if (landing.slot !== undefined) return touchHolder(landing.slot, mode, from, line);
    const unit = landing.unit === undefined ? undefined : program.units.get(landing.unit);
    if (!unit) return;
    if (unit.kind === 'variable') touchHolder(unit.id, mode, from, line);
    else if (mode !== 'read' || callee || unit.kind === 'property') return;
    // A unit struct's bare name makes a value of it (`Box::new(AutoApprove)`), as a struct literal does.
    else if (unit.kind === 'class' && program.typeFact(unit.id)?.unitLike && landing.value.kind === 'unit') sink.add('instantiates', from, unit.id, line);
    else sink.add('references', from, unit.id, line);
  };

  const unresolved = (use: UseFact, from: string, reason: UnresolvedReason): void => {
    result.unresolved.push({ from, text: use.text ?? '', line: use.line, reason });
  };

  const resolved = (line: number): void => {
    result.resolvedCallLines.push(line);
  };

  const callEdges = (callees: Callees, from: string, line: number, resolution: 'scope' | 'name'): boolean => {
    if (callees.direct.length === 0 && callees.dispatch.length === 0) return false;
    for (const id of callees.direct) sink.add('calls', from, id, line, { via: 'direct', resolution });
    for (const id of callees.dispatch) sink.add('calls', from, id, line, { via: 'dispatch', resolution });
    resolved(line);
    return true;
  };

  /** A method call whose receiver's type is not known: tied by name to trait impls, else to a few inherent methods. */
  const byName = (use: UseFact, from: string, name: string): void => {
    const traits = program.impls.traitsByMethod.get(name);
    if (STD_METHOD_NAMES.has(name)) {
      // Most likely std's own; where the repository declares the name too, which one runs is not known.
      if (names.all.has(name) || traits) unresolved(use, from, 'dynamic');
      return;
    }
    if (traits) {
      const callees: Callees = { direct: [], dispatch: [] };
      for (const traitId of traits) {
        const call = program.impls.traitCall([traitId], name);
        if (call) callees.dispatch.push(...call.callees.direct, ...call.callees.dispatch);
      }
      callees.dispatch = [...new Set(callees.dispatch)].sort();
      if (callEdges(callees, from, use.line, 'name')) return;
    }
    const candidates = names.inherent.get(name) ?? [];
    if (candidates.length > 0 && candidates.length <= NAME_CANDIDATE_LIMIT) {
      for (const id of candidates) sink.add('calls', from, id, use.line, { resolution: 'name' });
      return resolved(use.line);
    }
    unresolved(use, from, names.all.has(name) ? 'dynamic' : 'external');
  };

  const resolveMethodCall = (use: UseFact, from: string, name: string, receiver: Landing, last: Landing): void => {
    const value = receiver.value;
    if (last.callees && callEdges(last.callees, from, use.line, 'scope')) {
      if (last.callees.direct.some((id) => program.mutatesSelf(id))) touchHolder(program.holderOf(receiver), 'write', from, use.line);
      return;
    }
    if (MUTATING_METHODS.has(name) && value.kind !== 'instance' && value.kind !== 'traits') touchHolder(program.holderOf(receiver), 'write', from, use.line);
    switch (value.kind) {
      case 'std':
        return;
      case 'external':
        return unresolved(use, from, 'external');
      case 'unknown':
        return unresolved(use, from, 'unknown');
      case 'instance': {
        if (STD_METHOD_NAMES.has(name)) return;
        return unresolved(use, from, program.impls.externalTraitOf(value.typeId) !== undefined ? 'external' : 'unknown');
      }
      case 'traits':
        return STD_METHOD_NAMES.has(name) ? undefined : unresolved(use, from, 'unknown');
      case 'dynamic':
        return byName(use, from, name);
      default:
        return unresolved(use, from, 'dynamic');
    }
  };

  const resolvePathCall = (use: UseFact, from: string, callee: Landing): void => {
    if (callee.callees && callEdges(callee.callees, from, use.line, 'scope')) return;
    const unit = callee.unit === undefined ? undefined : program.units.get(callee.unit);
    if (unit && (unit.kind === 'function' || unit.kind === 'method')) {
      sink.add('calls', from, unit.id, use.line, { via: 'direct' });
      return resolved(use.line);
    }
    if (callee.value.kind === 'variant') {
      sink.add('instantiates', from, callee.value.enumId, use.line);
      return resolved(use.line);
    }
    if (unit?.kind === 'class') {
      sink.add('instantiates', from, unit.id, use.line);
      return resolved(use.line);
    }
    // Calling what a field or static holds reads it, then calls the value (a fn pointer, a closure).
    if (callee.slot !== undefined || unit?.kind === 'variable') touch(callee, 'read', from, use.line);
    const value = callee.value;
    if (value.kind === 'std') return;
    if (value.kind === 'external') return unresolved(use, from, 'external');
    if (value.kind === 'unknown') return unresolved(use, from, 'unknown');
    if (callee.missing) return STD_METHOD_NAMES.has(lastName(use)) ? undefined : unresolved(use, from, 'unknown');
    unresolved(use, from, 'dynamic');
  };

  const resolveMacro = (use: UseFact, from: string): void => {
    const root = use.expression.root;
    if (root.kind !== 'path') return;
    const name = root.segments[root.segments.length - 1]!;
    const own = root.segments.length === 1 ? program.macroNamed(file, name) : undefined;
    const found = own ?? program.resolvePath(program.moduleKey(file, root.scope), root.segments).unit;
    if (found !== undefined && program.macroIds.has(found)) {
      sink.add('calls', from, found, use.line, { via: 'direct' });
      return resolved(use.line);
    }
    if (root.segments.length === 1 && BUILTIN_MACROS.has(name)) return;
    if (root.segments.length > 1 && (root.segments[0] === 'std' || root.segments[0] === 'core')) return;
    unresolved(use, from, 'external');
  };

  const unitIds = new Map<string, string>([['', file]]);
  for (const use of uses) {
    let from = unitIds.get(use.from);
    if (from === undefined) unitIds.set(use.from, (from = `${file}#${use.from}`));
    if (use.access === 'macro') {
      resolveMacro(use, from);
      continue;
    }
    const landings: Landing[] = [];
    program.evalExpression(file, use.expression, (landing) => landings.push(landing));
    const root = use.expression.root;
    const first = landings[0]!;
    if (root.kind === 'path' && first.value.kind === 'external' && root.segments.length > 0) result.externalCrates.add(first.value.crate);
    if (use.access === 'instantiate') {
      const value = landings[landings.length - 1]!.value;
      if (value.kind === 'instance') sink.add('instantiates', from, value.typeId, use.line);
      continue;
    }
    const steps = use.expression.steps;
    // Every landing but the last is read on the way (`self.tools.get()` reads tools); a callee, or what a method call gave, is read only if it is state.
    for (let index = 0; index < landings.length - 1; index += 1) touch(landings[index], 'read', from, use.line, steps[index]?.kind === 'call' || steps[index - 1]?.kind === 'method');
    const last = landings[landings.length - 1]!;
    const receiver = landings.length > 1 ? landings[landings.length - 2] : undefined;
    const lastStep: Step | undefined = steps[steps.length - 1];
    switch (use.access) {
      case 'call':
        if (lastStep?.kind === 'method') resolveMethodCall(use, from, lastStep.name, receiver!, last);
        else if (lastStep?.kind === 'call') resolvePathCall(use, from, receiver!);
        break;
      case 'read':
        touch(last, 'read', from, use.line);
        break;
      case 'write':
      case 'update':
      case 'mutate':
        // Writing through a handle (`*guard = v`, `guard.x = v` on what no field declares) writes what it is a handle on.
        if (last.slot !== undefined || (last.unit !== undefined && program.units.get(last.unit)?.kind === 'variable')) touch(last, use.access, from, use.line);
        else touchHolder(program.holderOf(last) ?? program.holderOf(receiver), use.access === 'write' ? 'write' : use.access, from, use.line);
        // A field written through a handle changes what the handle is on, too.
        if (last.slot !== undefined && receiver && receiver.slot === undefined) {
          const origin = program.holderOf(receiver);
          if (origin !== undefined && origin !== last.slot) touchHolder(origin, 'write', from, use.line);
        }
        break;
    }
  }
  return result;
}

function lastName(use: UseFact): string {
  const root = use.expression.root;
  return root.kind === 'path' || root.kind === 'type' || root.kind === 'item' ? root.segments[root.segments.length - 1] ?? '' : '';
}

/** The slot of a struct field (`file#Type.name`), as its type declares it now. */
export function fieldSlot(program: RustProgram, id: string): Slot {
  const dot = id.lastIndexOf('.');
  const owner = id.slice(0, dot);
  const name = id.slice(dot + 1);
  const field = program.typeFact(owner)?.fields[name];
  return { id, kind: 'field', file: owner.slice(0, owner.lastIndexOf('#')), owner, name, line: field?.line ?? 1, type: field?.type ?? '' };
}
